/// Text from a trace or report made safe to print on a terminal. O(length).
public enum TerminalText {
  /// `message` with C0 and C1 control characters and DEL escaped (`\x1B`, `\x9B`: an 8-bit
  /// CSI would otherwise start an escape sequence), any run of more than 80 characters without
  /// a space (an echoed field) cut to 77 and `…`, at most 400 characters in all (without
  /// `cutting`, only the escaping: for messages that hold long paths).
  public static func safe(_ message: String, cutting: Bool = true) -> String {
    var result = ""
    var run = 0
    var kept = 0
    for scalar in message.unicodeScalars {
      if cutting, kept >= 400 {
        result += "…"
        break
      }
      if scalar == " " {
        run = 0
      } else {
        run += 1
        if cutting, run > 77 {
          if run == 78 { result += "…" }
          continue
        }
      }
      kept += 1
      if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
        result += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
