import CFFmpeg

/// The name of the calling thread, as `top -H`, a debugger and `/proc/self/task/*/comm` show it.
///
/// In the fence because it calls C (`prctl`, through the CFFmpeg shim: it is variadic, which Swift cannot
/// call). The contract: the kernel copies the name, so the Swift string need live only for the call.
enum ThreadName {
    /// Names the calling thread (15 bytes at most on Linux; nothing elsewhere). Threads it starts afterwards,
    /// libavcodec's among them, inherit the name.
    static func setCurrent(_ name: String) {
        tio_name_current_thread(name)
    }
}
