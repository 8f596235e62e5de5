import Foundation
import PhotosTestSupport

/// Sidecars as other tools write them, each with what a write of the library must leave as it was.
enum SidecarFixtures {
    /// darktable 4.x (through Exiv2): a rejected RAW (`xmp:Rating="-1"`) with an EXIF-style date, its
    /// edit history, tags, and a title in two languages.
    static let darktable = """
        <?xml version="1.0" encoding="UTF-8"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:exif="http://ns.adobe.com/exif/1.0/"
            xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
            xmlns:darktable="http://darktable.sf.net/"
            xmlns:dc="http://purl.org/dc/elements/1.1/"
            xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
           exif:DateTimeOriginal="2023:07:14 18:22:05"
           xmp:Rating="-1"
           xmpMM:DerivedFrom="IMG_1.CR2"
           darktable:import_timestamp="63826999999000000"
           darktable:change_timestamp="-1"
           darktable:xmp_version="5"
           darktable:raw_params="0"
           darktable:auto_presets_applied="1"
           darktable:history_end="2"
           darktable:iop_order_version="4">
           <darktable:masks_history>
            <rdf:Seq/>
           </darktable:masks_history>
           <darktable:history>
            <rdf:Seq>
             <rdf:li
              darktable:num="0"
              darktable:operation="rawprepare"
              darktable:enabled="1"
              darktable:modversion="1"
              darktable:params="000000000000000000000000000000000000000000000000"
              darktable:multi_name=""
              darktable:multi_priority="0"
              darktable:blendop_version="13"
              darktable:blendop_params="gz08eJxjYIAACQYYOOHEgAZY0QVwggZ7CB6pfOygYtaZsuLdm6+3iTE+nUfn4xMYUDEAEm6r1A=="/>
             <rdf:li
              darktable:num="1"
              darktable:operation="exposure"
              darktable:enabled="1"
              darktable:modversion="6"
              darktable:params="00000000000080b90000003f00004842000080c0"
              darktable:multi_name=""
              darktable:multi_priority="0"
              darktable:blendop_version="13"
              darktable:blendop_params="gz08eJxjYIAACQYYOOHEgAZY0QVwggZ7CB6pfOygYtaZsuLdm6+3iTE+nUfn4xMYUDEAEm6r1A=="/>
            </rdf:Seq>
           </darktable:history>
           <dc:subject>
            <rdf:Bag>
             <rdf:li>darktable|format|cr2</rdf:li>
             <rdf:li>beach</rdf:li>
            </rdf:Bag>
           </dc:subject>
           <dc:title>
            <rdf:Alt>
             <rdf:li xml:lang="x-default">Evening</rdf:li>
             <rdf:li xml:lang="fr-FR">Soir</rdf:li>
            </rdf:Alt>
           </dc:title>
           <lr:hierarchicalSubject>
            <rdf:Bag>
             <rdf:li>darktable|format|cr2</rdf:li>
            </rdf:Bag>
           </lr:hierarchicalSubject>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>

        """

    /// What the library removes from ``darktable`` on its first write: its own properties, which
    /// darktable had written as attributes.
    static let darktableOwned = ["\n   exif:DateTimeOriginal=\"2023:07:14 18:22:05\"", "\n   xmp:Rating=\"-1\""]

    /// digiKam 8 (through Exiv2), in an xpacket wrapper: rating in two namespaces, labels, tags in three
    /// forms, a face region (a nested rdf:Description), a caption.
    static let digiKam = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:MicrosoftPhoto="http://ns.microsoft.com/photo/1.0/"
            xmlns:digiKam="http://www.digikam.org/ns/1.0/"
            xmlns:acdsee="http://ns.acdsee.com/iptc/1.0/"
            xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
            xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
            xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"
            xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#"
            xmlns:dc="http://purl.org/dc/elements/1.1/"
           xmp:CreatorTool="digiKam-8.2.0"
           xmp:Rating="3"
           MicrosoftPhoto:Rating="50"
           digiKam:PickLabel="2"
           digiKam:ColorLabel="4"
           acdsee:categories="&lt;Categories&gt;&lt;Category Assigned=&quot;1&quot;&gt;Family&lt;/Category&gt;&lt;/Categories&gt;">
           <digiKam:TagsList>
            <rdf:Seq>
             <rdf:li>Family/Anna</rdf:li>
             <rdf:li>Places/Paris</rdf:li>
            </rdf:Seq>
           </digiKam:TagsList>
           <MicrosoftPhoto:LastKeywordXMP>
            <rdf:Bag>
             <rdf:li>Family/Anna</rdf:li>
             <rdf:li>Places/Paris</rdf:li>
            </rdf:Bag>
           </MicrosoftPhoto:LastKeywordXMP>
           <lr:hierarchicalSubject>
            <rdf:Bag>
             <rdf:li>Family|Anna</rdf:li>
             <rdf:li>Places|Paris</rdf:li>
            </rdf:Bag>
           </lr:hierarchicalSubject>
           <mwg-rs:Regions rdf:parseType="Resource">
            <mwg-rs:AppliedToDimensions stDim:w="4000" stDim:h="3000" stDim:unit="pixel"/>
            <mwg-rs:RegionList>
             <rdf:Bag>
              <rdf:li>
               <rdf:Description mwg-rs:Name="Anna" mwg-rs:Type="Face">
                <mwg-rs:Area stArea:x="0.5" stArea:y="0.4" stArea:w="0.1" stArea:h="0.15" stArea:unit="normalized"/>
               </rdf:Description>
              </rdf:li>
             </rdf:Bag>
            </mwg-rs:RegionList>
           </mwg-rs:Regions>
           <dc:subject>
            <rdf:Bag>
             <rdf:li>Anna</rdf:li>
             <rdf:li>Paris</rdf:li>
            </rdf:Bag>
           </dc:subject>
           <dc:description>
            <rdf:Alt>
             <rdf:li xml:lang="x-default">At the Louvre</rdf:li>
            </rdf:Alt>
           </dc:description>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """

    static let digiKamOwned = ["\n   xmp:Rating=\"3\""]

    /// Lightroom Classic beside a CR2 (`IMG_3.xmp`): camera settings, develop settings, history, the
    /// date with its offset, and `photoshop:SidecarForExtension`.
    static let lightroom = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0-c000 1.000000, 0000/00/00-00:00:00        ">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:tiff="http://ns.adobe.com/tiff/1.0/"
            xmlns:exif="http://ns.adobe.com/exif/1.0/"
            xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:aux="http://ns.adobe.com/exif/1.0/aux/"
            xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
            xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
            xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#"
            xmlns:dc="http://purl.org/dc/elements/1.1/"
            xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
           tiff:Make="Canon"
           tiff:Model="Canon EOS 5D Mark IV"
           exif:ExposureTime="1/250"
           exif:FNumber="8/1"
           exif:DateTimeOriginal="2023-07-14T18:22:05.00+02:00"
           exif:GPSLatitude="43,17.9730N"
           exif:GPSLongitude="5,22.3620E"
           aux:Lens="EF24-70mm f/2.8L II USM"
           xmp:ModifyDate="2023-08-01T10:00:00+02:00"
           xmp:Rating="4"
           xmp:Label="Red"
           photoshop:DateCreated="2023-07-14T18:22:05.00+02:00"
           photoshop:SidecarForExtension="CR2"
           xmpMM:DocumentID="xmp.did:0b1e7e6a-5c1d-4f8e-9b0a-3f3c2c2d1e1f"
           xmpMM:InstanceID="xmp.iid:6f0c1d2e-3a4b-4c5d-8e9f-a0b1c2d3e4f5"
           crs:Version="15.4"
           crs:ProcessVersion="11.0"
           crs:WhiteBalance="As Shot"
           crs:Exposure2012="+0.35"
           crs:Contrast2012="+12"
           crs:HasSettings="True">
           <xmpMM:History>
            <rdf:Seq>
             <rdf:li
              stEvt:action="saved"
              stEvt:instanceID="xmp.iid:6f0c1d2e-3a4b-4c5d-8e9f-a0b1c2d3e4f5"
              stEvt:when="2023-08-01T10:00:00+02:00"
              stEvt:softwareAgent="Adobe Photoshop Lightroom Classic 12.4 (Macintosh)"
              stEvt:changed="/metadata"/>
            </rdf:Seq>
           </xmpMM:History>
           <dc:subject>
            <rdf:Bag>
             <rdf:li>sunset</rdf:li>
            </rdf:Bag>
           </dc:subject>
           <crs:ToneCurvePV2012>
            <rdf:Seq>
             <rdf:li>0, 0</rdf:li>
             <rdf:li>255, 255</rdf:li>
            </rdf:Seq>
           </crs:ToneCurvePV2012>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        """

    static let lightroomOwned = [
        "\n   exif:DateTimeOriginal=\"2023-07-14T18:22:05.00+02:00\"", "\n   exif:GPSLatitude=\"43,17.9730N\"",
        "\n   exif:GPSLongitude=\"5,22.3620E\"", "\n   xmp:Rating=\"4\"",
    ]

    /// The file without the library's own description (from the line end before it to its end tag).
    static func otherToolsPart(of text: String) -> String {
        guard let marker = text.range(of: "xmlns:photosd=\"") else { return text }
        guard let start = text[..<marker.lowerBound].range(of: "<rdf:Description", options: .backwards),
            let end = text[marker.upperBound...].range(of: "</rdf:Description>")
        else { return text }
        var lineStart = start.lowerBound
        while lineStart > text.startIndex, text[text.index(before: lineStart)].isWhitespace {
            lineStart = text.index(before: lineStart)
        }
        return String(text[..<lineStart] + text[end.upperBound...])
    }

    /// Runs exiftool with `arguments`; its standard output.
    static func exiftool(_ arguments: [String]) async throws -> String {
        try await offPool {
            let process = TestProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["exiftool"] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// exiftool's `-j -G1 -a` of a file: group:tag → value; with `structures`, `-struct` too (lists of
    /// structures as arrays of objects, which exiftool's flattened names cut to their first item).
    static func exiftoolTags(_ path: String, structures: Bool = false) async throws -> [String: Any] {
        let text = try await exiftool(["-j", "-G1", "-a"] + (structures ? ["-struct"] : []) + [path])
        let array = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        return array?.first ?? [:]
    }
}
