import Foundation
import TensorIO

// Usage: SoundAndTextConsumer — runs the README's audio and text examples (ReadmeExamples.swift, written
// by scripts/consumer-check.sh from README.md's blocks that import TensorIOAudio or TensorIOText).
try readmeExample1()
try readmeExample2()
