import TensorIO

/// What a detection call keeps of what the model found.
///
/// Left at their defaults, the options keep what the bundle's `detection` description says: its
/// `min_score` and `max_results`, every category.
public struct DetectionOptions: Sendable, Hashable {
    /// The most detections to return, best first; `nil` for the bundle's `max_results` (all when it has
    /// none).
    public var maximumResults: Int?
    /// The lowest score kept; `nil` for the bundle's `min_score` (none when it has none).
    public var scoreThreshold: Float?
    /// Labels to keep, all others dropped; empty keeps every label. A detection without a label is
    /// dropped when the list is not empty.
    public var categoryAllowlist: Set<String>
    /// Labels to drop.
    public var categoryDenylist: Set<String>
    /// The locale of the labels detections carry, such as `fr`: the bundle's display names in that locale
    /// (``DetectionDescription/displayNames``) where it has them, its labels otherwise. The category lists
    /// always name the bundle's own labels, as MediaPipe's do.
    public var labelsLocale: String?

    /// Creates options.
    ///
    /// - Parameters:
    ///   - maximumResults: The most detections to return; `nil` for the bundle's.
    ///   - scoreThreshold: The lowest score kept; `nil` for the bundle's.
    ///   - categoryAllowlist: Labels to keep (empty: all).
    ///   - categoryDenylist: Labels to drop.
    ///   - labelsLocale: The locale of the labels returned; `nil` for the bundle's labels.
    public init(
        maximumResults: Int? = nil, scoreThreshold: Float? = nil, categoryAllowlist: Set<String> = [],
        categoryDenylist: Set<String> = [], labelsLocale: String? = nil
    ) {
        self.maximumResults = maximumResults
        self.scoreThreshold = scoreThreshold
        self.categoryAllowlist = categoryAllowlist
        self.categoryDenylist = categoryDenylist
        self.labelsLocale = labelsLocale
    }
}
