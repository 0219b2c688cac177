/// The version both programs of the tool print (`tensorio --version`, `tensorio-repository --version`).
package enum ToolVersion {
    package static let current = "0.10.0-dev"
}
