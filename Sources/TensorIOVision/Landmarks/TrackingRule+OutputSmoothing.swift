extension TrackingRule {
    /// MediaPipe's smoothing of the landmarks a tracker returns (a body's `PoseLandmarkFiltering` with
    /// `smooth_landmarks`, on by default in MediaPipe): each frame's landmarks filtered against the instance's
    /// earlier frames, so a still body's points stop jittering. It changes what the tracker returns, never the
    /// region it follows (that is ``TrackingRule/smoothing``), and never a still photo's landmarks.
    public struct OutputSmoothing: Sendable, Hashable {
        /// The one-euro filter of the landmarks' x, y and z, in pixels, their speed divided by the instance's
        /// size (the mean side of the tracking points' region before shift, square and scale: for a body,
        /// MediaPipe's region of its two unsmoothed auxiliary points); `nil` leaves them as the model gives them.
        public var landmarks: Smoothing?
        /// The one-euro filter of the world landmarks' x, y and z, in metres, their speed not scaled (a body's
        /// size in metres does not depend on its size in the frame); `nil` leaves them as they are.
        public var worldLandmarks: Smoothing?
        /// The weight of each frame's visibility in the low-pass filtered visibility (0 to 1: 1 does not
        /// smooth), or `nil` to leave it as it is.
        public var visibilityAlpha: Double?

        /// Creates output smoothing settings.
        ///
        /// - Parameters:
        ///   - landmarks: The landmarks' filter, or `nil`.
        ///   - worldLandmarks: The world landmarks' filter, or `nil`.
        ///   - visibilityAlpha: The visibility's low-pass weight (0 to 1), or `nil`.
        public init(landmarks: Smoothing? = nil, worldLandmarks: Smoothing? = nil, visibilityAlpha: Double? = nil) {
            self.landmarks = landmarks
            self.worldLandmarks = worldLandmarks
            self.visibilityAlpha = visibilityAlpha
        }
    }
}
