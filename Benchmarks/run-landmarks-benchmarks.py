"""Landmarks, side by side in one run (issue 39, point 6; run it with `make bench-landmarks`).

  bundles       made for the run, in a temporary folder, by `tensorio init DETECTOR LANDMARKS --landmarker
                KIND` from the pinned mediapipe wheel's own models (.build/zoo/mediapipe-modules/, make
                setup-zoo): hand = palm_detection_full + hand_landmark_full, face = face_detection_short_range
                + face_landmark, pose = pose_detection + pose_landmark_full. MediaPipe's side checks that these
                files are byte for byte the ones its solutions load.
  per photo     landmarks-benchmark (TensorIO: Landmarker.landmarks(in:) on the photo, decoded once) against
                MediaPipe 0.10.21's legacy Python solution (mp.solutions.hands.Hands, face_mesh.FaceMesh,
                pose.Pose, static_image_mode=True, the reference fixtures' settings: process() on the photo's
                RGB array, decoded once with Pillow), warm, on the same models and photo: the gesture photo
                task-data/gestures/call/0413d5c5-….jpg of the test data (scripts/testdata.py) for hand and
                face, Tests/Fixtures/Detection/photos/astronaut.jpg for pose; both sides must find the same
                number of instances, at least one. Each with its default threads, as the other vision
                runners compare (benchlib.per_photo): TensorIO as `tensorio landmarks` runs one photo (both
                models with --threads = the cores), MediaPipe with the one inference thread its solutions use
                (their graphs leave XNNPACK's num_threads at -1, which is 1 off Android and iOS; no setting).
                One thread each is printed as a reference line.
  crop share    the region-of-interest crop and the point mapping against the two invokes, as the goal names
                them, from Landmarker.profiledLandmarks(in:) inside landmarks-benchmark: crop = each region
                cut from the upright photo (RegionCrop) and written into the landmark model's input tensor
                (that run's preparation and input conversion), mapping = the landmark run's outputs read and
                its points decoded and mapped back onto the photo, invokes = the runtime's own invokes of the
                detector and the landmark model (RunProfile.invoke). share = (crop + mapping) / invokes from
                the medians of the per-iteration figures, on one thread (as the segmentation mask's share:
                the invokes are then the models' whole CPU work, while the crop and the mapping never use a
                second core). Reference lines: the same on every core, and the superset measured through
                the public API alone — the whole landmarks(in:) call minus the two runs as a caller makes
                them (detector.run on the photo, landmarkModel.run on a picture of the crop's size), which
                also charges the landmarker with decoding and suppressing the detections and the regions.
  --jobs        `tensorio landmarks` with the hand bundle over 100 photos with `--jobs 2` against `--jobs 1
                --threads 1`, process start to the printed JSON (the 28 gesture photos copied round robin).
Each measurement is a process of its own, repeated --repeats times, the order turning each round (benchlib's
alternate); each goal is decided on the median of its per-round figures and printed with their range.
Prints the table and the goals with PASS/FAIL, writes bench-results/landmarks.json, and exits 0 whatever the
outcome."""
import os
import subprocess
import sys
import tempfile

import benchlib
from benchlib import ROOT, HERE, describe, figures, median, ms, ratios

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import testdata  # noqa: E402  (the test data's manifest and cache: make test-data)

MODULES = os.path.join(ROOT, ".build", "zoo", "mediapipe-modules")
GESTURES = "task-data/gestures/"
GESTURE_PHOTO = testdata.path(GESTURES + "call/0413d5c5-f5ba-476f-a921-ea5e967692a9.jpg")
ASTRONAUT = os.path.join(ROOT, "Tests", "Fixtures", "Detection", "photos", "astronaut.jpg")

MIN_OVER_MEDIAPIPE = 1.5
MAX_OTHER_SHARE = 0.05
MIN_JOBS_SCALING = 1.8
JOBS_PHOTOS = 100

CASES = [
    # kind, detector, landmark model, MediaPipe's solution, photo
    ("hand", "palm_detection/palm_detection_full.tflite", "hand_landmark/hand_landmark_full.tflite",
     "MediaPipe's Hands", GESTURE_PHOTO),
    ("face", "face_detection/face_detection_short_range.tflite", "face_landmark/face_landmark.tflite",
     "MediaPipe's FaceMesh", GESTURE_PHOTO),
    ("pose", "pose_detection/pose_detection.tflite", "pose_landmark/pose_landmark_full.tflite",
     "MediaPipe's Pose", ASTRONAUT),
]


def make_bundle(kind, detector, landmarks, folder):
    """`tensorio init DETECTOR LANDMARKS --landmarker KIND -o FOLDER/KIND.tiobundle`; its path."""
    bundle = os.path.join(folder, f"{kind}.tiobundle")
    done = subprocess.run([benchlib.TENSORIO, "init", detector, landmarks, "--landmarker", kind, "-o", bundle],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"tensorio init … --landmarker {kind} exited {done.returncode}: {done.stderr.strip()[-600:]}")
    return bundle


def main():
    arguments = benchlib.mediapipe_arguments(__doc__.splitlines()[0], 100, "timed iterations per process")
    benchmark = benchlib.program("landmarks-benchmark")

    rows, goals, references = [], [], []
    cores = str(os.cpu_count() or 1)
    with tempfile.TemporaryDirectory() as folder:
        bundles = {}
        for kind, detector_file, landmark_file, solution, photo in CASES:
            detector, landmarks = os.path.join(MODULES, detector_file), os.path.join(MODULES, landmark_file)
            bundle = bundles[kind] = make_bundle(kind, detector, landmarks, folder)
            runs = str(arguments.runs)
            commands = {"ours": [benchmark, bundle, str(photo), runs, "--threads", cores],
                        "single": [benchmark, bundle, str(photo), runs, "--threads", "1"],
                        "theirs": [arguments.python, os.path.join(HERE, "python", "landmarks_mediapipe.py"), kind,
                                   detector, landmarks, str(photo), runs]}
            results = benchlib.alternate_json(
                commands, arguments.repeats, label=kind,
                show=lambda r: (f"TensorIO {r['ours']['photo_us']:.0f} µs ({r['single']['photo_us']:.0f} µs on one thread: "
                                f"invokes {r['single']['invokes_us']:.0f} µs, the rest {r['single']['other_us']:+.0f} µs), "
                                f"MediaPipe {r['theirs']['photo_us']:.0f} µs"))
            ours, single, theirs = results["ours"], results["single"], results["theirs"]
            found = {side: {int(result["instances"]) for result in results[side]} for side in results}
            if len(found["ours"] | found["single"] | found["theirs"]) != 1 or 0 in found["theirs"]:
                raise SystemExit(f"{kind}: the sides found different numbers of instances, or none: {found}")
            name = f"{kind} ({os.path.basename(detector_file)[:-7]} + {os.path.basename(landmark_file)[:-7]})"
            row, speed, reference = benchlib.per_photo(name, "landmarks", results, MIN_OVER_MEDIAPIPE, solution)
            crop_mapping_us, model_invokes_us = figures(single, "crop_mapping_us"), figures(single, "model_invokes_us")
            shares = ratios(crop_mapping_us, model_invokes_us)
            every_core = ratios(figures(ours, "crop_mapping_us"), figures(ours, "model_invokes_us"))
            superset = ratios(figures(single, "other_us"), figures(single, "invokes_us"))
            row.update({"photo": testdata.reference_name(photo), "width": int(theirs[-1]["width"]),
                        "height": int(theirs[-1]["height"]), "instances": int(theirs[-1]["instances"]),
                        "detector_us": median(figures(single, "detector_us")),
                        "landmark_us": median(figures(single, "landmark_us")),
                        "model_invokes_us": median(model_invokes_us), "crop_us": median(figures(single, "crop_us")),
                        "mapping_us": median(figures(single, "mapping_us")), "crop_mapping_us": median(crop_mapping_us),
                        "crop_share": median(shares), "crop_share_every_core": median(every_core),
                        "invokes_us": median(figures(single, "invokes_us")), "other_us": median(figures(single, "other_us")),
                        "other_share": median(superset)})
            rows.append(row)
            goals.append(speed)
            references.append(reference)
            goals.append(benchlib.goal(
                f"{kind}: the region crop and point mapping at most {MAX_OTHER_SHARE:.0%} of the two invokes",
                shares, MAX_OTHER_SHARE, at_least=False, show=lambda v: f"{v:.1%}",
                detail=f"crop + mapping {describe(crop_mapping_us, lambda v: f'{v:.0f} µs')} against "
                       f"{describe(model_invokes_us, lambda v: f'{v:.0f} µs')} of invokes (one thread; crop "
                       f"{median(figures(single, 'crop_us')):.0f} µs, mapping {median(figures(single, 'mapping_us')):.0f} µs)"))
            references.append(
                f"{kind}: with {cores} threads the crop and mapping are {describe(every_core, lambda v: f'{v:.1%}')} of the invokes "
                f"({median(figures(ours, 'crop_mapping_us')):.0f} µs against {median(figures(ours, 'model_invokes_us')):.0f} µs)")
            references.append(
                f"{kind}: everything besides the two runs as a caller makes them (the regions too) is "
                f"{describe(superset, lambda v: f'{v:.1%}')} of those runs "
                f"({median(figures(single, 'other_us')):+.0f} µs against {median(figures(single, 'invokes_us')):.0f} µs; one thread)")

        entries = testdata.load_manifest()
        sources = sorted(str(testdata.path(name)) for name in entries if name.startswith(GESTURES) and name.endswith(".jpg"))
        photos = benchlib.copy_round_robin(sources, JOBS_PHOTOS, tempfile.mkdtemp(dir=folder))
        goals.append(benchlib.jobs_goal("landmarks (hand)", [benchlib.TENSORIO, "landmarks", bundles["hand"], *photos, "--json"],
                                        len(photos), arguments.repeats, MIN_JOBS_SCALING))

    benchlib.print_photo_table(rows, arguments.repeats, "invokes   crop + mapping (one thread)",
                               lambda row: f"{ms(row['model_invokes_us']):>8} {row['crop_mapping_us']:.0f} µs ({row['crop_share']:.1%})")
    benchlib.report("landmarks", goals, references, {"rows": rows}, packages=("mediapipe", "numpy", "pillow"))


if __name__ == "__main__":
    main()
