import Foundation
import Testing
import TensorIOTestSupport

/// A short smoke run of `tensorio bench` so the command never rots; the full comparison is `make bench`.
@Suite("tensorio bench")
struct BenchCommandTests {
    static let requiredKeys = [
        "init_us", "first_inference_us", "warmup_avg_us", "inference_avg_us", "inference_min_us",
        "inference_max_us", "inference_std_us", "inference_p50_us", "inference_p95_us", "memory_init_mb",
        "memory_overall_mb", "peak_rss_mb",
    ]

    @Test("--json reports benchmark_model's figures, with the split and concurrency", arguments: [
        "1_in_1_out_number_test.tiobundle", "2_in_2_out_vectors_test.tiobundle", "quantized_uint8_test.tiobundle",
    ])
    func json(_ bundle: String) async throws {
        let result = try await CLI.run("bench", Fixtures.path(bundle), "--runs", "20", "--warmup", "2", "--json")
        #expect(result.exited && result.status == 0, "\(result)")
        let object = try jsonObject(result)
        for key in Self.requiredKeys {
            let value = try #require(object[key] as? Double, "missing \(key): \(result)")
            #expect(value.isFinite && value >= 0, "\(key) = \(value)")
        }
        let min = try #require(object["inference_min_us"] as? Double)
        let p50 = try #require(object["inference_p50_us"] as? Double)
        let p95 = try #require(object["inference_p95_us"] as? Double)
        let max = try #require(object["inference_max_us"] as? Double)
        #expect(min <= p50 && p50 <= p95 && p95 <= max)
        #expect(object["end_to_end_avg_us"] == nil, "no image, no end-to-end figure")
        let invoke = try #require(object["invoke_avg_us"] as? Double)
        let overhead = try #require(object["tensorio_overhead_avg_us"] as? Double)
        #expect(invoke > 0 && overhead > 0)
        let concurrency = try #require(object["concurrency"] as? [String: Any])
        #expect((concurrency["callers_1_runs_per_s"] as? Double ?? 0) > 0)
        #expect((concurrency["callers_2_runs_per_s"] as? Double ?? 0) > 0)
    }

    @Test("--image adds the end-to-end figure")
    func image() async throws {
        let result = try await CLI.run(
            "bench", "Examples/efficientnet-lite0-uint8.tiobundle", "--image", "Examples/photos/cat.jpg",
            "--runs", "3", "--warmup", "0", "--callers", "1", "--json"
        )
        #expect(result.exited && result.status == 0, "\(result)")
        let object = try jsonObject(result)
        // Present and measured; no comparison with the inference time, which a busy machine can make
        // either way over three runs (a timing comparison failed CI once).
        let endToEnd = try #require(object["end_to_end_avg_us"] as? Double)
        #expect(endToEnd > 0 && endToEnd.isFinite)
        #expect(object["concurrency"] == nil)
    }

    @Test("--memory-modes adds the RSS growth over async runs and over runs from concurrent callers")
    func memoryModes() async throws {
        let result = try await CLI.run(
            "bench", Fixtures.path("1_in_1_out_number_test.tiobundle"), "--runs", "200", "--memory-modes", "--json"
        )
        #expect(result.exited && result.status == 0, "\(result)")
        let object = try jsonObject(result)
        for key in ["rss_growth_mb", "rss_growth_async_mb", "rss_growth_pooled_mb"] {
            let growth = try #require(object[key] as? Double, "missing \(key): \(result)")
            #expect(growth.isFinite, "\(key) = \(growth)")
        }
    }

    @Test("the text report names every figure")
    func text() async throws {
        let result = try await CLI.run("bench", Fixtures.path("1_in_1_out_number_test.tiobundle"), "--runs", "5")
        #expect(result.exited && result.status == 0, "\(result)")
        for label in ["Init:", "First inference:", "Warm-up", "Inference: avg", "Split (avg): TensorIO", "Memory: init", "Throughput:"] {
            #expect(result.stdout.contains(label), "missing \(label): \(result)")
        }
    }

    @Test("bad arguments are one-line errors: usage errors exit 64, an image for a model without image input 1", arguments: [
        ["--runs", "0"], ["--callers", "0"], ["--image", "Examples/photos/cat.jpg"],
    ])
    func errors(_ extra: [String]) async throws {
        let result = try await CLI.run(["bench", Fixtures.path("2_in_2_out_vectors_test.tiobundle")] + extra)
        expectOneLineError(result, status: extra[0] == "--image" ? 1 : 64)
    }
}
