extension TFLiteMetadata {
    /// What the metadata says about one input or output tensor.
    public struct TensorMetadata: Sendable, Hashable {
        /// An inclusive range of dimensions (the schema's `ValueRange`, used by `Content.range`).
        public struct DimensionRange: Sendable, Hashable {
            /// The first dimension.
            public var min: Int32
            /// The last dimension.
            public var max: Int32

            /// Creates a range.
            public init(min: Int32, max: Int32) {
                self.min = min
                self.max = max
            }
        }

        /// Per-channel statistics of the tensor's values, for reference.
        public struct Stats: Sendable, Hashable {
            /// Per-channel minimum values (one value: every channel).
            public var min: [Float]
            /// Per-channel maximum values (one value: every channel).
            public var max: [Float]

            /// Creates statistics.
            public init(min: [Float], max: [Float]) {
                self.min = min
                self.max = max
            }
        }

        /// The tensor's name in the metadata (not necessarily the graph's tensor name).
        public var name: String?
        /// What the tensor holds, in the model author's words.
        public var description: String?
        /// A name for each dimension.
        public var dimensionNames: [String]
        /// What the values represent; `nil` when the metadata does not say.
        public var content: ContentProperties?
        /// The dimensions the content spans (`Content.range`); `nil`: all but the batch dimension.
        public var contentRange: DimensionRange?
        /// Steps to apply outside the graph, in order.
        public var processUnits: [ProcessUnit]
        /// Statistics of the values.
        public var stats: Stats?
        /// Files describing the tensor, such as its labels.
        public var associatedFiles: [AssociatedFile]

        /// Creates tensor metadata.
        public init(
            name: String? = nil, description: String? = nil, dimensionNames: [String] = [],
            content: ContentProperties? = nil, contentRange: DimensionRange? = nil, processUnits: [ProcessUnit] = [],
            stats: Stats? = nil, associatedFiles: [AssociatedFile] = []
        ) {
            self.name = name
            self.description = description
            self.dimensionNames = dimensionNames
            self.content = content
            self.contentRange = contentRange
            self.processUnits = processUnits
            self.stats = stats
            self.associatedFiles = associatedFiles
        }
    }
}
