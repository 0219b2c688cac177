/// Says on stderr, as `warning: MESSAGE`, that something the user asked for has no effect; the command
/// goes on. Held with the library's warnings until the command ends: printed after a success, dropped after
/// a failure, whose report stays one line.
package func warn(_ message: String) {
    DeferredLogHandler.hold("warning: \(message)")
}
