import ArgumentParser
import Foundation
@_spi(Internal) import TensorIO
import TensorIOToolSupport
import TensorIOSupport

/// `tensorio run BUNDLE [--input [NAME=]VALUE]... [--top N] [--threshold T]`
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a model once and print its outputs as one JSON object.",
        discussion: """
            VALUE is a JSON number or (nested) array (quote it: --input '[1,2,3]'), or @FILE: a .json \
            file holding one, a NumPy .npy file, a NumPy .npz file whose arrays feed the layers they are \
            named after, @- for standard input (JSON or .npy), or any other file: raw little-endian bytes \
            in the layer's element type. NAME= may be left out when the model has one input; a model \
            with one input given several values (or several --image files) runs once per value and \
            prints one JSON line each, in order (image outputs as NAME-1.png, NAME-2.png…), failures \
            last. The output object is keyed by output layer name: a number for single-element \
            layers, a flat row-major array otherwise, label -> score for labelled layers, base64 for \
            string layers.
            """
    )

    @OptionGroup var model: ModelOptionGroup

    // Unconditional parsing: a negative number (`--input -1`, `--threshold -0.5`) is a value, not an option.
    @Option(name: .customLong("input"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A value for an input layer.", valueName: "[NAME=]VALUE"))
    var inputs: [String] = []

    @Option(name: .customLong("image"), help: ArgumentHelp("A JPEG or PNG file for an image layer.", valueName: "[NAME=]PATH"))
    var images: [String] = []

    @Option(name: .customLong("placeholder"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A value for a placeholder layer (TensorFlow bundles); repeatable.", valueName: "NAME=VALUE"))
    var placeholders: [String] = []

    @Option(help: "Where image outputs are written, as NAME.png.")
    var outputDir: String?

    @OptionGroup var imageOptions: ImageOptionGroup

    @Option(help: "For labelled outputs, print only the N best scores, best first.")
    var top: Int?

    @Option(parsing: .unconditional, help: "For labelled outputs, keep only scores above T.")
    var threshold: Float?

    mutating func validate() throws {
        if let top, top < 1 { throw ValidationError("--top must be at least 1") }
    }

    func run() throws {
        let (bundle, model) = try model.makeModel(images: imageOptions)
        if bundle.predictionOutputs.contains(where: \.isImage), outputDir == nil {
            throw CLIError.usage("the model has image outputs: give --output-dir DIR to write them as PNG files")
        }
        warnAboutOptionsWithoutEffect(bundle)
        let placeholderValues = try PlaceholderArguments.parse(placeholders, bundle: bundle)
        if bundle.predictionInputs.count == 1, inputs.count + images.count > 1 {
            return try runEach(bundle: bundle, model: model, placeholders: placeholderValues)
        }
        let input = try makeInput(for: bundle, configuration: model.configuration)
        let outputs = try RuntimeLog.capturing { try model.run(input, placeholders: placeholderValues) }
        print(JSONText.render(try render(outputs)))
    }

    /// A model with one input given several values (`--input @a.npy --input @b.npy`, `--image` per photo):
    /// one run per value, each result printed as one JSON line as soon as it is ready, in the order given;
    /// values that fail are reported at the end, one line each, with exit status 1.
    private func runEach(bundle: ModelBundle, model: any Model, placeholders: [String: InputValue]) throws {
        let names = bundle.predictionInputs.names
        let configuration = model.configuration
        let given: [(label: String, parse: () throws -> [InputArgument])] =
            inputs.map { text in ("--input \(text)", { try InputArgument.parse(text, layerNames: names) }) }
            + images.map { path in
                ("--image \(path)", { [try InputArgument(image: path, bundle: bundle, configuration: configuration)] })
            }
        var failures = InputFailures()
        var index = 0
        for (label, parse) in given {
            let values: [InputArgument]
            do {
                values = try parse()
            } catch {
                failures.record(error, label: label)
                continue
            }
            // An .npz file may hold several arrays: each is a run of its own.
            for value in values {
                index += 1
                do {
                    let outputs = try RuntimeLog.capturing { try model.run(value.value, placeholders: placeholders) }
                    print(JSONText.render(try render(outputs, run: index)))
                } catch {
                    failures.record(error, label: label)
                }
            }
        }
        if !failures.isEmpty { throw failures }
    }

    /// Options that change nothing for this model are said so on stderr, rather than silently ignored.
    private func warnAboutOptionsWithoutEffect(_ bundle: ModelBundle) {
        let labelled = bundle.predictionOutputs.contains(where: { $0.labels != nil })
        if top != nil, !labelled { warn("--top has no effect: the model has no labelled output") }
        if threshold != nil, !labelled { warn("--threshold has no effect: the model has no labelled output") }
        if outputDir != nil, !bundle.predictionOutputs.contains(where: \.isImage) {
            warn("--output-dir has no effect: the model has no image output")
        }
        if imageOptions.resizeGiven, images.isEmpty { warn("--resize and --scaling have no effect without --image") }
    }

    private func makeInput(for bundle: ModelBundle, configuration: ModelConfiguration) throws -> InputValue {
        let names = bundle.predictionInputs.names
        let arguments = try inputs.flatMap { try InputArgument.parse($0, layerNames: names) }
            + images.map { try InputArgument(image: $0, bundle: bundle, configuration: configuration) }
        guard !arguments.isEmpty else {
            throw CLIError.usage("give a value for each input with --input [NAME=]VALUE or --image [NAME=]PATH (inputs: \(names.joined(separator: ", ")))")
        }
        if arguments.count == 1, arguments[0].layerName == nil {
            guard names.count == 1 else {
                throw CLIError.usage("the model has \(names.count) inputs (\(names.joined(separator: ", "))): name each one, --input NAME=VALUE")
            }
            return arguments[0].value
        }
        var byName: [String: InputValue] = [:]
        for argument in arguments {
            guard let name = argument.layerName else {
                throw CLIError.usage("name each input when giving several: --input NAME=VALUE (inputs: \(names.joined(separator: ", ")))")
            }
            guard byName[name] == nil else { throw CLIError.usage("--input \(name) is given twice") }
            byName[name] = argument.value
        }
        return .named(byName)
    }

    /// The outputs as one JSON object; `run` numbers the image files of one of several runs.
    private func render(_ outputs: Outputs, run: Int? = nil) throws -> JSONText.Value {
        .object(try outputs.map { output in (output.name, try render(output.value, name: output.name, run: run)) })
    }

    private func render(_ value: Output.Value, name: String, run: Int?) throws -> JSONText.Value {
        switch value {
        case .image(let image):
            let directory = URL(fileURLWithPath: outputDir ?? ".")
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw CLIError("--output-dir \(directory.relativePath): cannot create the folder: \(SystemErrorText.reason(creatingFolder: directory, error: error))")
            }
            let safeName = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
            let file = directory.appendingPathComponent(safeName + (run.map { "-\($0)" } ?? "") + ".png")
            try image.write(to: file)
            return .string(file.path)
        case .numbers(let numbers, _):
            return JSONText.Value(numbers)
        case .bytes(let data):
            return .string(data.base64EncodedString())
        case .labeled(let scores):
            if top != nil || threshold != nil {
                let best = scores.top(top ?? scores.count, threshold: threshold)
                return .object(best.map { ($0.label, .float($0.score)) })
            }
            return .object(scores.map { ($0.label, .float($0.score)) })
        }
    }
}
