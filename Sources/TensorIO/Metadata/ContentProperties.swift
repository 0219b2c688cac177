extension TFLiteMetadata {
    /// What a tensor's values represent (the metadata schema's `ContentProperties` union).
    public enum ContentProperties: Sendable, Hashable {
        /// Plain numeric features.
        case feature
        /// An image.
        case image(ImageProperties)
        /// Bounding boxes.
        case boundingBox(BoundingBoxProperties)
        /// Audio samples.
        case audio(AudioProperties)
        /// A union member this reader does not know (from a newer schema): its type number.
        case unknown(type: UInt8)
    }

    /// How an image tensor's pixels are laid out.
    public struct ImageProperties: Sendable, Hashable {
        /// The image's colour space.
        public enum ColorSpace: Sendable, Hashable {
            /// Not given (`UNKNOWN`), or a value this reader does not know.
            case unknown
            /// Red, green, blue.
            case rgb
            /// One grey channel.
            case grayscale
        }

        /// A width and height in pixels.
        public struct Size: Sendable, Hashable {
            /// The width in pixels.
            public var width: UInt32
            /// The height in pixels.
            public var height: UInt32

            /// Creates a size.
            public init(width: UInt32, height: UInt32) {
                self.width = width
                self.height = height
            }
        }

        /// The colour space.
        public var colorSpace: ColorSpace
        /// The size to use when the tensor's shape is dynamic; for a fixed shape it matches the shape.
        public var defaultSize: Size?

        /// Creates image properties.
        public init(colorSpace: ColorSpace, defaultSize: Size? = nil) {
            self.colorSpace = colorSpace
            self.defaultSize = defaultSize
        }
    }

    /// How a bounding-box tensor's values are arranged.
    public struct BoundingBoxProperties: Sendable, Hashable {
        /// Which four values describe a box.
        public enum BoxType: Sendable, Hashable {
            /// Not given (`UNKNOWN`), or a value this reader does not know.
            case unknown
            /// Left, top, right, bottom.
            case boundaries
            /// Upper-left x and y, width, height.
            case upperLeft
            /// Centre x and y, width, height.
            case center
        }

        /// What unit the coordinates are in.
        public enum CoordinateType: Sendable, Hashable {
            /// Fractions of the image's size, from 0 to 1.
            case ratio
            /// Pixels (also any value this reader does not know).
            case pixel
        }

        /// The order of the box's four values relative to the type's default order (empty: the default).
        public var index: [UInt32]
        /// Which four values describe a box.
        public var type: BoxType
        /// What unit the coordinates are in.
        public var coordinateType: CoordinateType
        /// Whether the coordinates are fractions of the image's size (``CoordinateType/ratio``).
        public var isNormalized: Bool { coordinateType == .ratio }

        /// Creates bounding-box properties.
        public init(index: [UInt32] = [], type: BoxType, coordinateType: CoordinateType) {
            self.index = index
            self.type = type
            self.coordinateType = coordinateType
        }
    }

    /// How an audio tensor was sampled (schema 1.3.0 and later).
    public struct AudioProperties: Sendable, Hashable {
        /// Samples per second, in hertz.
        public var sampleRate: UInt32
        /// The number of interleaved channels.
        public var channels: UInt32

        /// Creates audio properties.
        public init(sampleRate: UInt32, channels: UInt32) {
            self.sampleRate = sampleRate
            self.channels = channels
        }
    }
}
