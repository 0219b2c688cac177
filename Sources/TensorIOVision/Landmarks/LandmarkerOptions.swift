/// What a landmarker keeps; what is left `nil` takes the bundle's defaults (its `landmarks.defaults`).
public struct LandmarkerOptions: Sendable, Hashable {
    /// At most this many instances, from 1 to 64 (the detector's best).
    public var maximumInstances: Int?
    /// The least detector score an instance needs, from 0 to 1.
    public var minimumDetectionScore: Double?
    /// The least presence the landmark model must give an instance, from 0 to 1 (for models that give one).
    public var minimumPresenceScore: Double?

    /// Creates options.
    ///
    /// - Parameters:
    ///   - maximumInstances: At most this many instances; `nil` for the bundle's default.
    ///   - minimumDetectionScore: The least detector score; `nil` for the bundle's default.
    ///   - minimumPresenceScore: The least presence; `nil` for the bundle's default.
    public init(maximumInstances: Int? = nil, minimumDetectionScore: Double? = nil, minimumPresenceScore: Double? = nil) {
        self.maximumInstances = maximumInstances
        self.minimumDetectionScore = minimumDetectionScore
        self.minimumPresenceScore = minimumPresenceScore
    }
}
