extension TFLiteMetadata {
    /// What the metadata says about one subgraph; the first describes the model's main subgraph.
    package struct SubgraphMetadata: Sendable, Hashable {
        /// Tensors meant to be read together, such as a detector's boxes, classes and scores (the
        /// schema's `TensorGroup`, 1.2.0 and later).
        package struct TensorGroup: Sendable, Hashable {
            /// The group's name.
            package var name: String?
            /// The ``TensorMetadata/name`` of each tensor in the group.
            package var tensorNames: [String]
        }

        /// Data for a particular consumer (MediaPipe's segmenter labels, for one), in a format the
        /// schema does not describe (the schema's `CustomMetadata`, 1.5.0 and later).
        package struct CustomMetadata: Sendable, Hashable {
            /// What the data is, such as `SEGMENTER_METADATA`.
            package var name: String?
            /// The bytes, at most ``TFLiteMetadata/maximumCustomDataBytes``.
            package var data: [UInt8]
        }

        /// The subgraph's name.
        package var name: String?
        /// What the subgraph does.
        package var description: String?
        /// One entry per input of the model's subgraph, in the subgraph's `inputs` order (not a
        /// signature's order).
        package var inputs: [TensorMetadata]
        /// One entry per output of the model's subgraph, in the subgraph's `outputs` order.
        package var outputs: [TensorMetadata]
        /// Steps applied to several inputs together (tokenizers, for example).
        package var inputProcessUnits: [ProcessUnit]
        /// Steps applied to several outputs together.
        package var outputProcessUnits: [ProcessUnit]
        /// Files describing the subgraph.
        package var associatedFiles: [AssociatedFile]
        /// Groups of inputs read together.
        package var inputTensorGroups: [TensorGroup]
        /// Groups of outputs read together.
        package var outputTensorGroups: [TensorGroup]
        /// Data for particular consumers.
        package var customMetadata: [CustomMetadata]

        /// Creates subgraph metadata.
        package init(
            name: String? = nil, description: String? = nil, inputs: [TensorMetadata] = [],
            outputs: [TensorMetadata] = [], inputProcessUnits: [ProcessUnit] = [],
            outputProcessUnits: [ProcessUnit] = [], associatedFiles: [AssociatedFile] = [],
            inputTensorGroups: [TensorGroup] = [], outputTensorGroups: [TensorGroup] = [],
            customMetadata: [CustomMetadata] = []
        ) {
            self.name = name
            self.description = description
            self.inputs = inputs
            self.outputs = outputs
            self.inputProcessUnits = inputProcessUnits
            self.outputProcessUnits = outputProcessUnits
            self.associatedFiles = associatedFiles
            self.inputTensorGroups = inputTensorGroups
            self.outputTensorGroups = outputTensorGroups
            self.customMetadata = customMetadata
        }
    }
}
