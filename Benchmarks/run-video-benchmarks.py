"""Video, side by side in one run (issue 41, point 5; run it with `make bench-video`).

  the clip      30 s of 1280×720 H.264 at 30 frames per second (900 frames) with motion, made by
                scripts/make_benchmark_clip.sh (Debian's ffmpeg, from a gesture photo of the test data) into
                .build/video-bench/SCRIPT-CRC/clip.mp4 when missing; never committed.
  pose          decoding and pose landmarks tracked frame to frame: video-benchmark pose (TensorIO:
                VideoDecoder.nextFrame() into BGRA, then LandmarkTracker.landmarks(in:timestamp:) with a
                bundle `tensorio init pose_detection.tflite pose_landmark_full.tflite --landmarker pose` makes
                from .build/zoo/mediapipe-modules/, both models on every core) against MediaPipe 0.10.21's
                legacy Pose solution in video mode (static_image_mode=False, model_complexity=1,
                smooth_landmarks=False, the settings of Tests/Fixtures/Landmarks/tracking.json) fed by OpenCV's
                cv2.VideoCapture, frames turned to RGB (Benchmarks/python/video_pose_mediapipe.py, its one
                inference thread: MediaPipe's graphs leave XNNPACK's num_threads at -1, which is 1 off Android
                and iOS). Both sides warm (both models run once before the clock), timed from opening the clip
                to the last frame's landmarks; both must find the body on the same number of frames, give or
                take 1%. Goal: TensorIO at least 1.5x as fast.
  decode        decoding alone: video-benchmark decode (every frame to a BGRA PixelBuffer, libavcodec's
                threads as VideoLimits sets them) against `ffmpeg -benchmark -i CLIP -sws_flags bilinear
                -pix_fmt bgra -f null -` (Debian's ffmpeg 5.1 with its default threads: the same decoding and
                the same conversion to BGRA, the frames then thrown away; its own real-time figure, rtime,
                which leaves out its start-up as TensorIO's clock does). Goal: TensorIO within 10% (at most
                1.10x ffmpeg's time). Plain `-f null -` (decoding without the conversion) is printed as a
                reference line.
Every figure: frames per second and the real-time factor (the clip's 30 s over the time taken). Each
measurement is a process of its own, repeated --repeats times, the order turning each round (benchlib's
alternate); each goal is decided on the median of its per-round ratios and printed with their range. Prints
the goals with PASS/FAIL, writes bench-results/video.json, and exits 0 whatever the outcome."""
import os
import re
import subprocess
import sys
import tempfile
import zlib

import benchlib
from benchlib import ROOT, HERE, describe, figures, median, ratios

MODULES = os.path.join(ROOT, ".build", "zoo", "mediapipe-modules")
DETECTOR = os.path.join(MODULES, "pose_detection", "pose_detection.tflite")
LANDMARKS = os.path.join(MODULES, "pose_landmark", "pose_landmark_full.tflite")
CLIP_SCRIPT = os.path.join(ROOT, "scripts", "make_benchmark_clip.sh")

MIN_POSE_OVER_MEDIAPIPE = 1.5
MAX_DECODE_OVER_FFMPEG = 1.10


def clip():
    """The benchmark clip, made when its script's version has none yet."""
    with open(CLIP_SCRIPT, "rb") as f:
        version = format(zlib.crc32(f.read()), "x")
    path = os.path.join(ROOT, ".build", "video-bench", version, "clip.mp4")
    if not os.path.exists(path):
        benchlib.log(f"making {benchlib.relative(path)} (30 s of 1280×720 H.264)")
        subprocess.run(["bash", CLIP_SCRIPT, path], check=True)
    return path


def ffmpeg(path, convert):
    """`ffmpeg -benchmark` decoding the clip to the null muxer (converting to BGRA as TensorIO does, or not): its
    rtime in seconds and the frames it counted."""
    command = ["ffmpeg", "-hide_banner", "-nostdin", "-benchmark", "-i", path]
    command += ["-sws_flags", "bilinear", "-pix_fmt", "bgra"] if convert else []
    command += ["-f", "null", "-"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"ffmpeg exited {done.returncode}: {done.stderr.strip()[-600:]}")
    rtime = re.search(r"bench: utime=\S+ stime=\S+ rtime=([0-9.]+)s", done.stderr)
    frames = re.findall(r"frame=\s*(\d+)", done.stderr)
    if not rtime or not frames:
        raise SystemExit(f"no rtime or frame count in ffmpeg's output: {done.stderr.strip()[-600:]}")
    return {"seconds": float(rtime.group(1)), "frames": int(frames[-1])}


def main():
    arguments = benchlib.mediapipe_arguments(__doc__.splitlines()[0], 1, "unused (one pass over the clip per process)", repeats=5)
    benchmark = benchlib.program("video-benchmark")
    path = clip()
    duration = 30.0
    goals, references, rows = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        bundle = os.path.join(folder, "pose.tiobundle")
        done = subprocess.run([benchlib.TENSORIO, "init", DETECTOR, LANDMARKS, "--landmarker", "pose", "-o", bundle],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"tensorio init … --landmarker pose exited {done.returncode}: {done.stderr.strip()[-600:]}")

        def fps(r):
            return f"{r['frames'] / r['seconds']:.1f} fps ({duration / r['seconds']:.2f}x real time)"

        pose = benchlib.alternate_json(
            {"ours": [benchmark, "pose", bundle, path],
             "theirs": [arguments.python, os.path.join(HERE, "python", "video_pose_mediapipe.py"), DETECTOR, LANDMARKS, path]},
            arguments.repeats, label="pose",
            show=lambda r: f"TensorIO {fps(r['ours'])} (detector on {r['ours']['detector_frames']} frames), MediaPipe {fps(r['theirs'])}")
        ours, theirs = pose["ours"], pose["theirs"]
        bodies = {"TensorIO": {r["frames_with_body"] for r in ours}, "MediaPipe": {r["frames_with_body"] for r in theirs}}
        frames = {r["frames"] for r in ours} | {r["frames"] for r in theirs}
        if len(frames) != 1 or abs(max(bodies["TensorIO"]) - max(bodies["MediaPipe"])) > 0.01 * max(frames):
            raise SystemExit(f"the sides decoded different frames or found the body on different numbers of frames: "
                             f"frames {frames}, frames with a body {bodies}")
        count = frames.pop()
        seconds_ours, seconds_theirs = figures(ours, "seconds"), figures(theirs, "seconds")
        goals.append(benchlib.goal(
            f"decode + pose landmarks with tracking at least {MIN_POSE_OVER_MEDIAPIPE}x MediaPipe's Pose (video mode) fed "
            "by OpenCV's decoder", ratios(seconds_theirs, seconds_ours), MIN_POSE_OVER_MEDIAPIPE,
            detail=f"TensorIO {count / median(seconds_ours):.1f} fps, {duration / median(seconds_ours):.2f}x real time; "
                   f"MediaPipe {count / median(seconds_theirs):.1f} fps, {duration / median(seconds_theirs):.2f}x real time "
                   f"({count} frames of 1280×720; detector on {median(figures(ours, 'detector_frames')):.0f} frames)"))
        rows.append({"what": "decode + pose tracking", "frames": count, "rounds": pose,
                     "tensorio_fps": count / median(seconds_ours), "mediapipe_fps": count / median(seconds_theirs),
                     "tensorio_realtime_factor": duration / median(seconds_ours),
                     "mediapipe_realtime_factor": duration / median(seconds_theirs)})

    decode = benchlib.alternate(
        {"ours": lambda: benchlib.run_json([benchmark, "decode", path]),
         "ffmpeg": lambda: ffmpeg(path, convert=True),
         "ffmpeg_plain": lambda: ffmpeg(path, convert=False)},
        arguments.repeats, label="decode",
        show=lambda r: f"TensorIO {fps(r['ours'])}, ffmpeg -pix_fmt bgra {fps(r['ffmpeg'])}, ffmpeg -f null {fps(r['ffmpeg_plain'])}")
    ours, theirs, plain = (figures(decode[side], "seconds") for side in ("ours", "ffmpeg", "ffmpeg_plain"))
    goals.append(benchlib.goal(
        f"decode alone (to BGRA) within {MAX_DECODE_OVER_FFMPEG - 1:.0%} of ffmpeg -pix_fmt bgra -f null",
        ratios(ours, theirs), MAX_DECODE_OVER_FFMPEG, at_least=False,
        detail=f"TensorIO {count / median(ours):.0f} fps ({duration / median(ours):.1f}x real time), ffmpeg "
               f"{count / median(theirs):.0f} fps ({duration / median(theirs):.1f}x real time)"))
    references.append(f"decoding without the conversion to BGRA (ffmpeg -f null -): {count / median(plain):.0f} fps "
                      f"({duration / median(plain):.1f}x real time); TensorIO to BGRA takes "
                      f"{describe(ratios(ours, plain), lambda v: f'{v:.2f}x')} its time")
    rows.append({"what": "decode", "frames": count, "rounds": decode, "tensorio_fps": count / median(ours),
                 "ffmpeg_bgra_fps": count / median(theirs), "ffmpeg_plain_fps": count / median(plain),
                 "tensorio_realtime_factor": duration / median(ours), "ffmpeg_bgra_realtime_factor": duration / median(theirs)})

    print(f"\nmedians of {arguments.repeats} rounds, {count} frames of 1280×720 ({duration:.0f} s)")
    for row in rows:
        print("  " + ", ".join(f"{k} {v:.1f}" for k, v in row.items() if k.endswith("fps") or k.endswith("factor")) + f"  ({row['what']})")
    benchlib.report("video", goals, references, {"clip": benchlib.relative(path), "rows": rows},
                    packages=("mediapipe", "opencv-contrib-python", "numpy"))


if __name__ == "__main__":
    main()
