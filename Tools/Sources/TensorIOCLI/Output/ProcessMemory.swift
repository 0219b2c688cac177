import Foundation

/// The process's memory, as benchmark_model reports it: resident set size now and at its peak, in MB.
enum ProcessMemory {
    /// Resident set size now (from /proc/self/statm on Linux; the peak elsewhere).
    static func residentMB() -> Double {
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = text.split(separator: " ")
            if fields.count > 1, let pages = Double(fields[1]) {
                return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
            }
        }
        #endif
        return peakResidentMB()
    }

    /// The largest resident set size so far.
    static func peakResidentMB() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576  // bytes on Apple platforms
        #endif
    }
}
