extension TFLiteMetadata {
    /// What the metadata says about one input or output tensor.
    package struct TensorMetadata: Sendable, Hashable {
        /// An inclusive range of dimensions (the schema's `ValueRange`, used by `Content.range`).
        package struct DimensionRange: Sendable, Hashable {
            /// The first dimension.
            package var min: Int32
            /// The last dimension.
            package var max: Int32
        }

        /// Per-channel statistics of the tensor's values, for reference.
        package struct Stats: Sendable, Hashable {
            /// Per-channel minimum values (one value: every channel).
            package var min: [Float]
            /// Per-channel maximum values (one value: every channel).
            package var max: [Float]
        }

        /// The tensor's name in the metadata (not necessarily the graph's tensor name).
        package var name: String?
        /// What the tensor holds, in the model author's words.
        package var description: String?
        /// A name for each dimension.
        package var dimensionNames: [String]
        /// What the values represent; `nil` when the metadata does not say.
        package var content: ContentProperties?
        /// The dimensions the content spans (`Content.range`); `nil`: all but the batch dimension.
        package var contentRange: DimensionRange?
        /// Steps to apply outside the graph, in order.
        package var processUnits: [ProcessUnit]
        /// Statistics of the values.
        package var stats: Stats?
        /// Files describing the tensor, such as its labels.
        package var associatedFiles: [AssociatedFile]

        /// Creates tensor metadata.
        package init(
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
