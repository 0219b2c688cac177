extension TFLiteMetadata {
    /// What a tensor's values represent (the metadata schema's `ContentProperties` union).
    package enum ContentProperties: Sendable, Hashable {
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
    package struct ImageProperties: Sendable, Hashable {
        /// The image's colour space.
        package enum ColorSpace: Sendable, Hashable {
            /// Not given (`UNKNOWN`), or a value this reader does not know.
            case unknown
            /// Red, green, blue.
            case rgb
            /// One grey channel.
            case grayscale
        }

        /// A width and height in pixels.
        package struct Size: Sendable, Hashable {
            /// The width in pixels.
            package var width: UInt32
            /// The height in pixels.
            package var height: UInt32
        }

        /// The colour space.
        package var colorSpace: ColorSpace
        /// The size to use when the tensor's shape is dynamic; for a fixed shape it matches the shape.
        package var defaultSize: Size?

        /// Creates image properties.
        package init(colorSpace: ColorSpace, defaultSize: Size? = nil) {
            self.colorSpace = colorSpace
            self.defaultSize = defaultSize
        }
    }

    /// How a bounding-box tensor's values are arranged.
    package struct BoundingBoxProperties: Sendable, Hashable {
        /// Which four values describe a box.
        package enum BoxType: Sendable, Hashable {
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
        package enum CoordinateType: Sendable, Hashable {
            /// Fractions of the image's size, from 0 to 1.
            case ratio
            /// Pixels (also any value this reader does not know).
            case pixel
        }

        /// The order of the box's four values relative to the type's default order (empty: the default).
        package var index: [UInt32]
        /// Which four values describe a box.
        package var type: BoxType
        /// What unit the coordinates are in.
        package var coordinateType: CoordinateType
        /// Whether the coordinates are fractions of the image's size (``CoordinateType/ratio``).
        package var isNormalized: Bool { coordinateType == .ratio }
    }

    /// How an audio tensor was sampled (schema 1.3.0 and later).
    package struct AudioProperties: Sendable, Hashable {
        /// Samples per second, in hertz.
        package var sampleRate: UInt32
        /// The number of interleaved channels.
        package var channels: UInt32
    }
}
