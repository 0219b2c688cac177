import Testing
import TensorIOToolSupport

/// Every report of the tool is one line, whatever it quotes (names from crafted files included).
@Suite("One-line reports")
struct OneLineTests {
    @Test("newlines, carriage returns and tabs become spaces; other line breaks and controls are escaped")
    func escapes() {
        #expect(OneLine.text("a\nb\rc\td") == "a b c d")
        #expect(OneLine.text("in\u{0B}put\u{0C}x\u{85}y\u{2028}z\u{2029}w\u{1B}[31m")
                == #"in\u{B}put\u{C}x\u{85}y\u{2028}z\u{2029}w\u{1B}[31m"#)
        #expect(OneLine.text("plain: ünïcødé 名前") == "plain: ünïcødé 名前")
        #expect(OneLine.text("") == "")
    }
}
