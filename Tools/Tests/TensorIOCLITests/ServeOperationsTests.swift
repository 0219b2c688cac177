import Foundation
import Testing
import TensorIOTestSupport

/// `tensorio serve` as an operator runs it: HEAD, JSON errors for unknown paths, request log lines,
/// `/metrics`, and configuration from flags, environment and a file — against real server processes.
@Suite("tensorio serve operations: HEAD, errors, logs, metrics, configuration")
struct ServeOperationsTests {
    static let id = Fixtures.numberModelId
    static let token = ServeProcess.writeToken

    /// A server with the write token and one pushed version ("1") of the number fixture.
    static func startSeeded(
        in folder: URL, arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> ServeProcess {
        let tokenFile = try ServeProcess.writeTokenFile(in: folder)
        let server = try await ServeProcess.start(
            root: folder.appendingPathComponent("root"), arguments: ["--token-file", tokenFile] + arguments,
            environment: environment)
        let pushed = try await CLI.run([
            "push", try Fixtures.bundle(version: "1", in: folder).path, "--to", server.url.absoluteString,
            "--token-file", tokenFile,
        ])
        #expect(pushed.status == 0, "\(pushed)")
        return server
    }

    // MARK: HEAD and errors

    @Test("HEAD on every GET route answers GET's status and headers without a body, the archive's ranges included")
    func headMatchesGet() async throws {
        try await withTemporaryDirectory { folder in
            let server = try await Self.startSeeded(in: folder)
            defer { server.stop() }
            let port = try #require(server.url.port)
            let version = "/v1/models/\(Self.id)/versions/1"
            let requests: [(path: String, headers: [String: String])] = [
                ("/v1/health", [:]), ("/v1/models", [:]), ("/v1/models?limit=1", [:]), ("/v1/models/\(Self.id)", [:]),
                ("/v1/models/\(Self.id)/versions", [:]), (version, [:]), (version + "/archive", [:]),
                (version + "/archive", ["Range": "bytes=0-9"]), (version + "/archive", ["Range": "bytes=999999999-"]),
                ("/v1/models/no-such-model", [:]), ("/v1/models/bad..id", [:]), ("/metrics", [:]),
            ]
            for (path, headers) in requests {
                let get = try RawHTTP.exchange(port: port, method: "GET", path: path, headers: headers)
                let head = try RawHTTP.exchange(port: port, method: "HEAD", path: path, headers: headers)
                #expect(head.status == get.status, "\(path) \(headers)")
                #expect(head.body.isEmpty, "HEAD \(path) sent \(head.body.count) bytes")
                // /metrics changes between the two requests (the GET is counted): its length may too.
                if path == "/metrics" { continue }
                for name in ["content-length", "content-type", "etag", "content-range", "accept-ranges", "cache-control"] {
                    #expect(head.headers[name] == get.headers[name], "\(name) of \(path) \(headers)")
                }
                #expect(get.headers["content-length"] == String(get.body.count), "GET \(path)")
            }
            let archive = try RawHTTP.exchange(port: port, method: "HEAD", path: version + "/archive", headers: ["Range": "bytes=0-9"])
            #expect(archive.status == 206 && archive.headers["content-length"] == "10" && archive.headers["etag"] != nil)
        }
    }

    @Test("unknown paths get the API's JSON 404; a known path with another method a JSON 405 with Allow")
    func unknownPathsAnswerJSON() async throws {
        try await withTemporaryDirectory { folder in
            let tokenFile = try ServeProcess.writeTokenFile(in: folder)
            let server = try await ServeProcess.start(
                root: folder.appendingPathComponent("root"), arguments: ["--token-file", tokenFile])
            defer { server.stop() }
            let port = try #require(server.url.port)

            let missing = try RawHTTP.exchange(port: port, method: "GET", path: "/v2/nothing/here?token=x")
            #expect(missing.status == 404)
            #expect(missing.headers["content-type"] == "application/json")
            #expect(try missing.errorCode() == "not-found")
            #expect(missing.headers["x-request-id"]?.isEmpty == false)

            let wrongMethod = try RawHTTP.exchange(port: port, method: "DELETE", path: "/v1/health")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.headers["allow"] == "GET, HEAD")
            #expect(try wrongMethod.errorCode() == "method-not-allowed")

            let upload = try RawHTTP.exchange(port: port, method: "GET", path: "/v1/models/a/canonical")
            #expect(upload.status == 405 && upload.headers["allow"] == "PUT", "\(upload.headers)")

            // Hummingbird's own error (a body past the 64 KiB a canonical move reads) in the API's JSON too.
            let tooLarge = try RawHTTP.exchange(
                port: port, method: "PUT", path: "/v1/models/a/canonical",
                headers: ["Authorization": "Bearer \(Self.token)", "Content-Type": "application/json"], body: Data(count: 100_000))
            #expect(tooLarge.status == 413 && tooLarge.headers["content-type"] == "application/json")
            #expect(try tooLarge.errorCode() == "too-large")

            let getMissing = try RawHTTP.exchange(port: port, method: "GET", path: "/nothing")
            let headMissing = try RawHTTP.exchange(port: port, method: "HEAD", path: "/nothing")
            #expect(headMissing.status == 404 && headMissing.body.isEmpty)
            #expect(headMissing.headers["content-length"] == String(getMissing.body.count))
        }
    }

    // MARK: Logs

    @Test("one log line per request, in text and in JSON, with method, path, status, bytes, duration and request id", arguments: ["text", "json"])
    func requestLogLines(format: String) async throws {
        try await withTemporaryDirectory { folder in
            let server = try await Self.startSeeded(in: folder, arguments: ["--log-format", format])
            let port = try #require(server.url.port)
            let version = "/v1/models/\(Self.id)/versions/1"

            let ok = try RawHTTP.exchange(port: port, method: "GET", path: "/v1/health", headers: ["X-Request-Id": "ops-200"])
            #expect(ok.status == 200 && ok.headers["x-request-id"] == "ops-200")
            let unauthorized = try RawHTTP.exchange(
                port: port, method: "POST", path: "/v1/models/\(Self.id)/versions/2", headers: ["X-Request-Id": "ops-401"])
            #expect(unauthorized.status == 401 && unauthorized.headers["x-request-id"] == "ops-401")
            let conflict = try RawHTTP.exchange(
                port: port, method: "POST", path: version,
                headers: ["X-Request-Id": "ops-409", "Authorization": "Bearer \(Self.token)", "Content-Type": "application/zip"])
            #expect(conflict.status == 409 && conflict.headers["x-request-id"] == "ops-409")
            // An id that could forge a log line is replaced by one of the server's own.
            let forged = try RawHTTP.exchange(
                port: port, method: "GET", path: "/v1/health", headers: ["X-Request-Id": "a b\\\"c"])
            // Quotes and backslashes in a path are escaped in JSON and do not break a text line.
            let hostilePath = #"/quote"back\slash"#
            let hostile = try RawHTTP.exchange(port: port, method: "GET", path: hostilePath, headers: ["X-Request-Id": "ops-hostile"])
            #expect(hostile.status == 404)
            let madeId = try #require(forged.headers["x-request-id"])
            #expect(madeId.count == 32 && madeId.allSatisfy(\.isHexDigit), "\(madeId)")
            let longest = String(repeating: "a", count: 128)
            #expect(try RawHTTP.exchange(port: port, method: "GET", path: "/v1/health", headers: ["X-Request-Id": longest])
                .headers["x-request-id"] == longest)
            #expect(try RawHTTP.exchange(port: port, method: "GET", path: "/v1/health", headers: ["X-Request-Id": longest + "a"])
                .headers["x-request-id"]?.count == 32, "an id past 128 characters is replaced")
            server.stop()

            let lines = try RequestLine.parse(server.stderr, format: format)
            let byId = Dictionary(lines.map { ($0.requestId, $0) }, uniquingKeysWith: { first, _ in first })
            let health = try #require(byId["ops-200"], "\(server.stderr)")
            #expect(health.method == "GET" && health.path == "/v1/health" && health.status == 200)
            #expect(health.bytes == ok.body.count && health.durationMs >= 0)
            #expect(byId["ops-401"]?.status == 401 && byId["ops-401"]?.method == "POST")
            #expect(byId["ops-409"]?.status == 409 && byId["ops-409"]?.path == version)
            #expect(byId[madeId]?.status == 200)
            #expect(byId["ops-hostile"]?.path == hostilePath, "\(server.stderr)")
            // The CLI's push before: the upload (201) has its line too.
            #expect(lines.contains { $0.method == "POST" && $0.path == version && $0.status == 201 }, "\(server.stderr)")
            #expect(!server.stderr.contains(Self.token), "the token was logged")
            #expect(!server.stderr.contains("token=x"))
        }
    }

    // MARK: Metrics

    @Test("/metrics counts requests by route and status, bytes served, uploads, validation failures and latency")
    func metricsCountRequests() async throws {
        try await withTemporaryDirectory { folder in
            let server = try await Self.startSeeded(in: folder)
            defer { server.stop() }
            let port = try #require(server.url.port)
            let auth = ["Authorization": "Bearer \(Self.token)"]
            for _ in 0..<2 { _ = try RawHTTP.exchange(port: port, method: "GET", path: "/v1/health") }
            let archive = try RawHTTP.exchange(port: port, method: "GET", path: "/v1/models/\(Self.id)/versions/1/archive")
            _ = try RawHTTP.exchange(port: port, method: "GET", path: "/v1/models/unknown-model-\(UUID().uuidString)")
            _ = try RawHTTP.exchange(port: port, method: "GET", path: "/no/route")
            _ = try RawHTTP.exchange(port: port, method: "POST", path: "/v1/models/\(Self.id)/versions/2")  // 401
            let garbage = try RawHTTP.exchange(
                port: port, method: "POST", path: "/v1/models/\(Self.id)/versions/3", headers: auth,
                body: Data("this is not a zip archive".utf8))
            #expect(garbage.status == 422)

            let metrics = try RawHTTP.exchange(port: port, method: "GET", path: "/metrics")
            #expect(metrics.status == 200 && metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
            let text = String(decoding: metrics.body, as: UTF8.self)
            let samples = PrometheusSamples(text)
            #expect(samples.value("tensorio_http_requests_total", ["route": "/v1/health", "method": "GET", "status": "200"]) == 2, "\(text)")
            #expect(samples.value("tensorio_http_requests_total", ["route": "/v1/models/{id}", "status": "404"]) == 1)
            #expect(samples.value("tensorio_http_requests_total", ["route": "unmatched", "status": "404"]) == 1)
            #expect(samples.value("tensorio_http_response_bytes_total", ["route": "/v1/models/{id}/versions/{version}/archive", "status": "200"])
                    == Double(archive.body.count))
            #expect(samples.value("tensorio_uploads_total", ["result": "accepted"]) == 1)
            #expect(samples.value("tensorio_uploads_total", ["result": "refused"]) == 2)
            #expect(samples.value("tensorio_upload_validation_failures_total", [:]) == 1)
            #expect(samples.value("tensorio_http_request_duration_seconds_count", ["route": "/v1/health", "status": "200"]) == 2)
            #expect(text.contains("tensorio_http_request_duration_seconds_bucket{"))
            // The raw path of the unknown model is not a label: label values stay bounded.
            #expect(!text.contains("unknown-model-"))
        }
    }

    @Test("/metrics needs the read token when the server protects reads")
    func metricsFollowReadProtection() async throws {
        try await withTemporaryDirectory { folder in
            let readTokenFile = folder.appendingPathComponent("read-token")
            try Data("reader\n".utf8).write(to: readTokenFile)
            let server = try await ServeProcess.start(
                root: folder.appendingPathComponent("root"), arguments: ["--read-token-file", readTokenFile.path])
            defer { server.stop() }
            let port = try #require(server.url.port)
            let open = try RawHTTP.exchange(port: port, method: "GET", path: "/metrics")
            let code = try open.errorCode()
            #expect(open.status == 401 && code == "unauthorized")
            let read = try RawHTTP.exchange(port: port, method: "GET", path: "/metrics", headers: ["Authorization": "Bearer reader"])
            #expect(read.status == 200)
            #expect(try RawHTTP.exchange(port: port, method: "HEAD", path: "/v1/health").status == 200)
        }
    }

    // MARK: Configuration

    @Test("settings from a config file, overridden by the environment, overridden by flags")
    func configurationPrecedence() async throws {
        try await withTemporaryDirectory { folder in
            let config = folder.appendingPathComponent("serve.json")
            try Data(#"{"logFormat": "json", "logLevel": "warning", "maxUploadMb": 1, "host": "127.0.0.1"}"#.utf8).write(to: config)
            let twoMiB = Data(count: 2 << 20)
            let auth = ["Authorization": "Bearer \(Self.token)"]
            let tokenFile = try ServeProcess.writeTokenFile(in: folder)

            // File: JSON lines and a 1 MiB upload limit; environment: info (over the file's warning).
            var server = try await ServeProcess.start(
                root: folder.appendingPathComponent("root"), arguments: ["--config", config.path, "--token-file", tokenFile], environment: ["TENSORIO_SERVE_LOG_LEVEL": "info"])
            var port = try #require(server.url.port)
            let tooLarge = try RawHTTP.exchange(port: port, method: "POST", path: "/v1/models/m/versions/1", headers: auth, body: twoMiB)
            #expect(tooLarge.status == 413, "the file's maxUploadMb")
            _ = try RawHTTP.exchange(port: port, method: "GET", path: "/v1/health", headers: ["X-Request-Id": "from-env"])
            server.stop()
            let jsonLines = try RequestLine.parse(server.stderr, format: "json")
            #expect(jsonLines.contains { $0.requestId == "from-env" }, "the file's JSON format, the environment's level: \(server.stderr)")

            // Flags over both: text format, 4 MiB; the environment's format over the file's is then unseen.
            server = try await ServeProcess.start(
                root: folder.appendingPathComponent("root"),
                arguments: ["--config", config.path, "--token-file", tokenFile, "--log-format", "text", "--max-upload-mb", "4"], environment: ["TENSORIO_SERVE_LOG_LEVEL": "info", "TENSORIO_SERVE_LOG_FORMAT": "json"])
            port = try #require(server.url.port)
            let accepted = try RawHTTP.exchange(port: port, method: "POST", path: "/v1/models/m/versions/1", headers: auth, body: twoMiB)
            #expect(accepted.status == 422, "past the size check (--max-upload-mb 4), refused as not a zip")
            _ = try RawHTTP.exchange(port: port, method: "GET", path: "/v1/health", headers: ["X-Request-Id": "from-flag"])
            server.stop()
            let textLines = try RequestLine.parse(server.stderr, format: "text")
            #expect(textLines.contains { $0.requestId == "from-flag" }, "\(server.stderr)")

            // Environment over file: the format, with no flag.
            server = try await ServeProcess.start(
                root: folder.appendingPathComponent("root"), arguments: ["--config", config.path], environment: ["TENSORIO_SERVE_LOG_LEVEL": "info", "TENSORIO_SERVE_LOG_FORMAT": "text"])
            port = try #require(server.url.port)
            _ = try RawHTTP.exchange(port: port, method: "GET", path: "/v1/health", headers: ["X-Request-Id": "env-format"])
            server.stop()
            #expect(try RequestLine.parse(server.stderr, format: "text").contains { $0.requestId == "env-format" }, "\(server.stderr)")

            // The file's level alone (no environment): warning, so no request lines.
            server = try await ServeProcess.start(
                root: folder.appendingPathComponent("root"), arguments: ["--config", config.path],
                environment: ["TENSORIO_SERVE_CONFIG": ""])
            port = try #require(server.url.port)
            _ = try RawHTTP.exchange(port: port, method: "GET", path: "/v1/health", headers: ["X-Request-Id": "quiet"])
            server.stop()
            #expect(!server.stderr.contains("quiet"), "\(server.stderr)")
        }
    }

    @Test("the config file can come from TENSORIO_SERVE_CONFIG")
    func configurationFileFromEnvironment() async throws {
        try await withTemporaryDirectory { folder in
            let config = folder.appendingPathComponent("serve.json")
            try Data(#"{"logFormat": "json"}"#.utf8).write(to: config)
            let server = try await ServeProcess.start(
                root: folder.appendingPathComponent("root"), environment: ["TENSORIO_SERVE_CONFIG": config.path])
            let port = try #require(server.url.port)
            _ = try RawHTTP.exchange(port: port, method: "GET", path: "/v1/health", headers: ["X-Request-Id": "env-file"])
            server.stop()
            #expect(try RequestLine.parse(server.stderr, format: "json").contains { $0.requestId == "env-file" }, "\(server.stderr)")
        }
    }

    @Test("a bad config file or value stops serve with one line naming the file, key, flag or variable", arguments: [
        (#"{"port": 80"#, [:], "is not a JSON object"),
        (#"{"prot": 8080}"#, [:], "unknown key \"prot\""),
        (#"{"port": "eighty"}"#, [:], "port in "),
        (#"{"port": 70000}"#, [:], "port in "),
        (#"{"logLevel": "loud"}"#, [:], "logLevel in "),
        (#"{"loadTimeLimit": [1]}"#, [:], "loadTimeLimit must be a string or a number"),
        ("{}", ["TENSORIO_SERVE_PORT": "abc"], "TENSORIO_SERVE_PORT must be a whole number"),
        ("{}", ["TENSORIO_SERVE_LOG_FORMAT": "xml"], "TENSORIO_SERVE_LOG_FORMAT must be text or json"),
    ] as [(String, [String: String], String)])
    func badConfiguration(file: String, environment: [String: String], expected: String) async throws {
        try await withTemporaryDirectory { folder in
            let config = folder.appendingPathComponent("bad.json")
            try Data(file.utf8).write(to: config)
            let result = try await CLI.run(
                ["serve", "--root", folder.appendingPathComponent("root").path, "--config", config.path],
                environment: environment)
            #expect(result.status != 0, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(result.stderr.contains(expected), "\(result)")
            if environment.isEmpty { #expect(result.stderr.contains(config.path), "\(result)") }
        }
    }

    @Test("a missing config file and a missing root are one clear line each")
    func missingFileAndRoot() async throws {
        try await withTemporaryDirectory { folder in
            let missing = folder.appendingPathComponent("nope.json").path
            var result = try await CLI.run(["serve", "--root", folder.path, "--config", missing])
            #expect(result.status != 0 && result.stderrLines.count == 1 && result.stderr.contains(missing), "\(result)")
            result = try await CLI.run(["serve"], environment: ["TENSORIO_SERVE_ROOT": nil, "TENSORIO_SERVE_CONFIG": nil])
            #expect(result.status != 0 && result.stderr.contains("TENSORIO_SERVE_ROOT"), "\(result)")
        }
    }
}

// MARK: - Helpers

/// One HTTP/1.1 exchange over a fresh loopback connection (`Connection: close`), read to the end, so a
/// test sees exactly the bytes the server sent (a HEAD answer's missing body included).
enum RawHTTP {
    struct Answer {
        var status: Int
        /// Lowercased names.
        var headers: [String: String]
        var body: Data

        func errorCode() throws -> String? {
            let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            return (object?["error"] as? [String: Any])?["code"] as? String
        }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    static func exchange(
        port: Int, method: String, path: String, headers: [String: String] = [:], body: Data = Data()
    ) throws -> Answer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" { head += "Content-Length: \(body.count)\r\n" }
        let response = try send(port: port, data: Data((head + "\r\n").utf8) + body)
        guard let end = response.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no complete answer to \(method) \(path): \(response.count) bytes")
        }
        let lines = String(decoding: response[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(lines[0])") }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: fields, body: Data(response[end.upperBound...]))
    }

    /// Sends `data` on a fresh connection and reads the answer to its end (60 s at most: a server that
    /// never answers fails the test instead of hanging it).
    private static func send(port: Int, data: Data) throws -> Data {
        let connection = try RawConnection(port: port, receiveTimeout: .seconds(60))
        // The server may answer (413, 401) and close before reading the whole body.
        connection.sendWhileAccepted(data)
        return connection.receiveToEnd(limit: 64 << 20)
    }
}

/// A request's log line, from either format.
struct RequestLine {
    var requestId: String
    var method: String
    var path: String
    var status: Int
    var bytes: Int
    var durationMs: Double

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Every request line of `stderr`; fails on a request line that misses a field.
    static func parse(_ stderr: String, format: String) throws -> [RequestLine] {
        try stderr.split(separator: "\n").compactMap { line -> RequestLine? in
            let fields: [String: String]
            if format == "json" {
                guard line.hasPrefix("{"),
                      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      object["message"] as? String == "request" else { return nil }
                #expect(object["time"] is String && object["level"] as? String == "info", "\(line)")
                #expect(object["status"] is NSNumber && object["bytes"] is NSNumber && object["duration_ms"] is NSNumber, "\(line)")
                fields = object.mapValues { "\($0)" }
            } else {
                // swift-log's stream format: `time level label: key=value … message`.
                guard line.hasSuffix(" request"), line.contains(" info "), line.contains("request_id=") else { return nil }
                var parsed: [String: String] = [:]
                for word in line.split(separator: " ") {
                    guard let equals = word.firstIndex(of: "=") else { continue }
                    parsed[String(word[..<equals])] = String(word[word.index(after: equals)...])
                }
                fields = parsed
            }
            guard let id = fields["request_id"], let method = fields["method"], let path = fields["path"],
                  let status = fields["status"].flatMap(Int.init), let bytes = fields["bytes"].flatMap(Int.init),
                  let duration = fields["duration_ms"].flatMap(Double.init) else {
                throw Failure(description: "a request line without every field: \(line)")
            }
            return RequestLine(requestId: id, method: method, path: path, status: status, bytes: bytes, durationMs: duration)
        }
    }
}

/// The samples of a Prometheus text exposition.
struct PrometheusSamples {
    private var samples: [(name: String, labels: [String: String], value: Double)] = []

    init(_ text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            let series = line[..<space]
            var labels: [String: String] = [:]
            var name = String(series)
            if let open = series.firstIndex(of: "{"), series.hasSuffix("}") {
                name = String(series[..<open])
                let body = series[series.index(after: open)..<series.index(before: series.endIndex)]
                for pair in body.split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2 else { continue }
                    labels[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
            }
            samples.append((name, labels, value))
        }
    }

    /// The sum of the samples named `name` whose labels include `labels`; nil when there is none.
    func value(_ name: String, _ labels: [String: String]) -> Double? {
        let matching = samples.filter { sample in
            sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }
        return matching.isEmpty ? nil : matching.reduce(0) { $0 + $1.value }
    }
}
