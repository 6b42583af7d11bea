extension TOMLParser {
  // Numbers and dates

  /// An integer, float, `inf`/`nan`, date, time or date-time.
  mutating func numberOrDate() throws(TOMLError) -> TOMLValue {
    let start = index
    while let byte = peek(), isNumberByte(byte) { index += 1 }
    // A date followed by a space and a time: one date-time.
    if index - start == 10, isDate(bytes[start..<index]), peek() == UInt8(ascii: " "), let h1 = peek(1),
      let h2 = peek(2), peek(3) == UInt8(ascii: ":"), isDigit(h1), isDigit(h2)
    {
      index += 1
      while let byte = peek(), isNumberByte(byte) { index += 1 }
    }
    let token = Array(bytes[start..<index])
    if token.count >= 5,
      isDate(token[0..<min(10, token.count)])
        || (token.count >= 3 && isDigit(token[0]) && isDigit(token[1]) && token[2] == UInt8(ascii: ":"))
    {
      return .dateTime(try dateTime(token, at: start))
    }
    return try number(token, at: start)
  }

  func number(_ token: [UInt8], at start: Int) throws(TOMLError) -> TOMLValue {
    let text = String(decoding: token, as: UTF8.self)
    var body = token[...]
    var negative = false
    if let sign = body.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      negative = sign == UInt8(ascii: "-")
      body = body.dropFirst()
    }
    if body.elementsEqual("inf".utf8) { return .float(negative ? -.infinity : .infinity) }
    if body.elementsEqual("nan".utf8) { return .float(.nan) }
    if body.count > 2, body.first == UInt8(ascii: "0"),
      let radix = [UInt8(ascii: "x"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "b"): 2][body[body.startIndex + 1]]
    {
      guard body.count == token.count else {
        throw error(at: start, "\(text): a hexadecimal, octal or binary integer takes no sign")
      }
      let digits = body.dropFirst(2)
      guard validUnderscores(digits, digit: { hexValue($0).map { $0 < radix } ?? false }) else {
        throw error(at: start, "invalid integer \(text)")
      }
      var value: UInt64 = 0
      for byte in digits where byte != UInt8(ascii: "_") {
        let (shifted, overflow) = value.multipliedReportingOverflow(by: UInt64(radix))
        guard !overflow, shifted <= UInt64(Int64.max) - UInt64(hexValue(byte)!) else {
          throw error(at: start, "integer \(text) does not fit in 64 bits")
        }
        value = shifted + UInt64(hexValue(byte)!)
      }
      return .integer(Int64(value))
    }
    guard !body.isEmpty else { throw error(at: start, "invalid number \(text)") }
    // Split the decimal form: integer part, optional fraction, optional exponent.
    var integerEnd = body.startIndex
    while integerEnd < body.endIndex, isDigit(body[integerEnd]) || body[integerEnd] == UInt8(ascii: "_") {
      integerEnd += 1
    }
    let integerPart = body[body.startIndex..<integerEnd]
    guard validUnderscores(integerPart, digit: isDigit) else { throw error(at: start, "invalid number \(text)") }
    guard integerPart.count == 1 || integerPart.first != UInt8(ascii: "0") else {
      throw error(at: start, "\(text): leading zeros are not allowed")
    }
    var rest = body[integerEnd...]
    if rest.isEmpty {
      var value: Int64 = 0
      for byte in integerPart where byte != UInt8(ascii: "_") {
        let digit = Int64(byte - UInt8(ascii: "0"))
        let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (next, overflow2) =
          negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
        guard !overflow1, !overflow2 else { throw error(at: start, "integer \(text) does not fit in 64 bits") }
        value = next
      }
      return .integer(value)
    }
    var isFloat = false
    if rest.first == UInt8(ascii: ".") {
      rest = rest.dropFirst()
      var end = rest.startIndex
      while end < rest.endIndex, isDigit(rest[end]) || rest[end] == UInt8(ascii: "_") { end += 1 }
      guard validUnderscores(rest[rest.startIndex..<end], digit: isDigit) else {
        throw error(at: start, "invalid float \(text): a '.' needs digits on both sides")
      }
      rest = rest[end...]
      isFloat = true
    }
    if let e = rest.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      rest = rest.dropFirst()
      if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
      guard validUnderscores(rest, digit: isDigit) else { throw error(at: start, "invalid float \(text)") }
      rest = rest[rest.endIndex...]
      isFloat = true
    }
    guard isFloat, rest.isEmpty else { throw error(at: start, "invalid number \(text)") }
    guard let value = Double(String(decoding: token.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)) else {
      throw error(at: start, "invalid float \(text)")
    }
    return .float(value)
  }

  func dateTime(_ token: [UInt8], at start: Int) throws(TOMLError) -> TOMLDateTime {
    let text = String(decoding: token, as: UTF8.self)
    let invalid = error(at: start, "invalid date or time \(text)")
    var result = TOMLDateTime()
    var position = 0
    func digits(_ count: Int) -> Int? {
      guard position + count <= token.count, token[position..<(position + count)].allSatisfy(isDigit) else {
        return nil
      }
      defer { position += count }
      return token[position..<(position + count)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
    func expect(_ byte: UInt8) -> Bool {
      guard position < token.count, token[position] == byte else { return false }
      position += 1
      return true
    }
    if token.count >= 10, isDate(token[0..<10]) {
      guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
        let day = digits(2)
      else { throw invalid }
      guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { throw invalid }
      result.date = (year, month, day)
      guard position < token.count else { return result }
      guard [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(token[position]) else { throw invalid }
      position += 1
    }
    guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2), expect(UInt8(ascii: ":")),
      let second = digits(2), hour < 24, minute < 60, second < 60
    else { throw invalid }
    var nanosecond = 0
    if expect(UInt8(ascii: ".")) {
      var count = 0
      while position < token.count, isDigit(token[position]) {
        if count < 9 { nanosecond = nanosecond * 10 + Int(token[position] - UInt8(ascii: "0")) }
        count += 1
        position += 1
      }
      guard count > 0 else { throw invalid }
      for _ in count..<max(count, 9) { nanosecond *= 10 }
    }
    result.time = (hour, minute, second, nanosecond)
    guard position < token.count else { return result }
    guard result.date != nil else { throw invalid }  // a local time has no offset
    if expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) {
      result.offsetMinutes = 0
    } else {
      guard let sign = token.dropFirst(position).first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
        throw invalid
      }
      position += 1
      guard let hours = digits(2), expect(UInt8(ascii: ":")), let minutes = digits(2), hours < 24, minutes < 60 else {
        throw invalid
      }
      result.offsetMinutes = (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
    }
    guard position == token.count else { throw invalid }
    return result
  }
}
