/// A stand-in for ImageIO's `CGImagePropertyOrientation`, which Linux lacks: EXIF orientation
/// values 1 to 8, how the stored pixels must be turned to be shown upright.
public enum CGImagePropertyOrientation: UInt32, Sendable, Hashable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8
}
