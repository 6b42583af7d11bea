/// One cell of a CSV file (RFC 4180).
public enum CSVCell {
  /// `text` as a cell: quoted, with quotes doubled, when it holds a comma, quote or line break
  /// or starts or ends with a space (which readers trim); otherwise as it is.
  public static func quoted(_ text: String) -> String {
    guard
      text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || text.first == " "
        || text.last == " "
    else { return text }
    var result = "\""
    for character in text {
      if character == "\"" { result.append("\"") }
      result.append(character)
    }
    return result + "\""
  }
}
