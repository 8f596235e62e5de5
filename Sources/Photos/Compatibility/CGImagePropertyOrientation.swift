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

extension UIImage.Orientation {
    /// UIKit's name for an EXIF orientation (Apple's mapping: 1 up, 2 upMirrored, 3 down,
    /// 4 downMirrored, 5 leftMirrored, 6 right, 7 rightMirrored, 8 left).
    init(_ orientation: CGImagePropertyOrientation) {
        switch orientation {
        case .up: self = .up
        case .upMirrored: self = .upMirrored
        case .down: self = .down
        case .downMirrored: self = .downMirrored
        case .leftMirrored: self = .leftMirrored
        case .right: self = .right
        case .rightMirrored: self = .rightMirrored
        case .left: self = .left
        }
    }
}
