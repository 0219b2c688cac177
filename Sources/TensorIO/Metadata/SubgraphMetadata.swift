extension TFLiteMetadata {
    /// What the metadata says about one subgraph; the first describes the model's main subgraph.
    public struct SubgraphMetadata: Sendable, Hashable {
        /// The subgraph's name.
        public var name: String?
        /// What the subgraph does.
        public var description: String?
        /// One entry per input of the model's subgraph, in the subgraph's `inputs` order (not a
        /// signature's order).
        public var inputs: [TensorMetadata]
        /// One entry per output of the model's subgraph, in the subgraph's `outputs` order.
        public var outputs: [TensorMetadata]
        /// Steps applied to several inputs together (tokenizers, for example).
        public var inputProcessUnits: [ProcessUnit]
        /// Steps applied to several outputs together.
        public var outputProcessUnits: [ProcessUnit]
        /// Files describing the subgraph.
        public var associatedFiles: [AssociatedFile]

        /// Creates subgraph metadata.
        public init(
            name: String? = nil, description: String? = nil, inputs: [TensorMetadata] = [],
            outputs: [TensorMetadata] = [], inputProcessUnits: [ProcessUnit] = [],
            outputProcessUnits: [ProcessUnit] = [], associatedFiles: [AssociatedFile] = []
        ) {
            self.name = name
            self.description = description
            self.inputs = inputs
            self.outputs = outputs
            self.inputProcessUnits = inputProcessUnits
            self.outputProcessUnits = outputProcessUnits
            self.associatedFiles = associatedFiles
        }
    }
}
