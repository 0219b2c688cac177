"""MediaPipe's side of run-landmarks-benchmarks.py: a legacy landmark solution on one decoded photo, warm.

  landmarks_mediapipe.py hand|face|pose DETECTOR LANDMARKS PHOTO RUNS

The solution built as Tests/Fixtures/Landmarks/references.json was made with (static-image mode, the
reference fixtures' settings):
  hand  mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=2, model_complexity=1,
        min_detection_confidence=0.5)                  palm_detection_full + hand_landmark_full
  face  mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=1, refine_landmarks=False,
        min_detection_confidence=0.5)                  face_detection_short_range + face_landmark
  pose  mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=False,
        min_detection_confidence=0.5)                  pose_detection + pose_landmark_full
The solutions load the wheel's own mediapipe/modules/ files; DETECTOR and LANDMARKS (the files TensorIO's
bundle was made from) must be byte for byte those, or the script stops. The photo is decoded once with
Pillow and turned upright (ImageOps.exif_transpose) into an RGB array, as the reference fixtures decode it;
each iteration is one process(rgb). Prints {"photo_us": median, "instances": n} as one JSON line. Runs in the
environment of scripts/fixtures/mediapipe-requirements.txt (mediapipe 0.10.21)."""
import filecmp
import os
import sys

import mediapipe as mp
import numpy as np
from PIL import Image, ImageOps

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Benchmarks/, for benchlib
import benchlib  # noqa: E402

# kind: (the solution, the results' field, the wheel's detector and landmark model under mediapipe/modules/)
SOLUTIONS = {
    "hand": (lambda: mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=2, model_complexity=1,
                                              min_detection_confidence=0.5),
             "multi_hand_landmarks", "palm_detection/palm_detection_full.tflite", "hand_landmark/hand_landmark_full.tflite"),
    "face": (lambda: mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=1, refine_landmarks=False,
                                                     min_detection_confidence=0.5),
             "multi_face_landmarks", "face_detection/face_detection_short_range.tflite", "face_landmark/face_landmark.tflite"),
    "pose": (lambda: mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=False,
                                            min_detection_confidence=0.5),
             "pose_landmarks", "pose_detection/pose_detection.tflite", "pose_landmark/pose_landmark_full.tflite"),
}


def instances(results, field):
    found = getattr(results, field)
    if found is None:
        return 0
    return 1 if field == "pose_landmarks" else len(found)


def main():
    kind, detector, landmarks, photo, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    make, field, wheel_detector, wheel_landmarks = SOLUTIONS[kind]
    modules = os.path.join(os.path.dirname(mp.__file__), "modules")
    for given, own in ((detector, wheel_detector), (landmarks, wheel_landmarks)):
        if not filecmp.cmp(given, os.path.join(modules, own), shallow=False):
            raise SystemExit(f"{given} is not the wheel's {own}: the two sides would run different models")
    with Image.open(photo) as image:
        rgb = np.ascontiguousarray(np.asarray(ImageOps.exif_transpose(image).convert("RGB"), dtype=np.uint8))
    with make() as solution:
        times = benchlib.sample_us(lambda: solution.process(rgb), runs, warmup=max(10, runs // 10))
        found = instances(solution.process(rgb), field)
    benchlib.emit({"photo_us": benchlib.median(times), "instances": found, "width": rgb.shape[1], "height": rgb.shape[0]})


if __name__ == "__main__":
    main()
