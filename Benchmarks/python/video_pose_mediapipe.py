"""MediaPipe's side of run-video-benchmarks.py: every frame of a clip, decoded by OpenCV's VideoCapture (its
FFmpeg backend, BGR), turned to RGB and given to MediaPipe 0.10.21's legacy Pose solution in video mode.

  video_pose_mediapipe.py DETECTOR LANDMARKS CLIP

  mp.solutions.pose.Pose(static_image_mode=False, model_complexity=1, smooth_landmarks=False,
                         enable_segmentation=False, min_detection_confidence=0.5, min_tracking_confidence=0.5)
  (pose_detection + pose_landmark_full, as Tests/Fixtures/Landmarks/tracking.json was made with: the body
  followed from frame to frame, the detector only when it is lost; smooth_landmarks=False because TensorIO's
  tracker returns the model's landmarks unsmoothed — the smoothing MediaPipe's graph does for the next region
  runs either way).

The solution loads the wheel's own mediapipe/modules/ files; DETECTOR and LANDMARKS (the files TensorIO's
bundle was made from) must be byte for byte those, or the script stops. The clock starts when the clip is
opened (the solution built and warm on the clip's first frame before) and stops after the last frame. Prints
{"frames", "seconds", "fps", "frames_with_body"} as one JSON line. Runs in the environment of
scripts/fixtures/mediapipe-requirements.txt (mediapipe 0.10.21, opencv-contrib-python 4.11)."""
import filecmp
import os
import sys
import time

import cv2
import mediapipe as mp

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Benchmarks/, for benchlib
import benchlib  # noqa: E402


def main():
    detector, landmarks, clip = sys.argv[1], sys.argv[2], sys.argv[3]
    modules = os.path.join(os.path.dirname(mp.__file__), "modules")
    for given, own in ((detector, "pose_detection/pose_detection.tflite"), (landmarks, "pose_landmark/pose_landmark_full.tflite")):
        if not filecmp.cmp(given, os.path.join(modules, own), shallow=False):
            raise SystemExit(f"{given} is not the wheel's {own}: the two sides would run different models")

    def solution():
        return mp.solutions.pose.Pose(static_image_mode=False, model_complexity=1, smooth_landmarks=False,
                                      enable_segmentation=False, min_detection_confidence=0.5,
                                      min_tracking_confidence=0.5)

    # Warm: the graph started and both models run once, on the clip's first frame, in a solution of its own.
    capture = cv2.VideoCapture(clip)
    ok, first = capture.read()
    capture.release()
    if not ok:
        raise SystemExit(f"OpenCV cannot read {clip}")
    with solution() as warm:
        warm.process(cv2.cvtColor(first, cv2.COLOR_BGR2RGB))
    with solution() as pose:
        frames = found = 0
        start = time.perf_counter()
        capture = cv2.VideoCapture(clip)
        while True:
            ok, bgr = capture.read()
            if not ok:
                break
            frames += 1
            if pose.process(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)).pose_landmarks is not None:
                found += 1
        seconds = time.perf_counter() - start
        capture.release()
    benchlib.emit({"frames": frames, "seconds": seconds, "fps": frames / seconds, "frames_with_body": found,
                   "opencv": cv2.__version__, "threads": cv2.getNumThreads()})


if __name__ == "__main__":
    main()
