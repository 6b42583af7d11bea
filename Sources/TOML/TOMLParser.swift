/// The reader's state: the bytes, the position, the table the current section adds to and
/// the tables dotted keys created in it.
struct TOMLParser {
  let bytes: [UInt8]
  var index = 0
  let root = TableNode()
  var current: TableNode
  /// Tables dotted keys created in the current section; defined when the section ends.
  var dottedInSection: [TableNode] = []
  var depth = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    current = root
  }

  // Document structure

  mutating func document() throws(TOMLError) -> TOMLTable {
    while true {
      skipSpaces()
      guard let byte = peek() else { break }
      switch byte {
      case UInt8(ascii: "\n"):
        index += 1
        continue
      case UInt8(ascii: "#"):
        try skipComment()
      case UInt8(ascii: "["):
        try header()
      default:
        try keyValue()
      }
      try endOfLine()
    }
    return root.frozen()
  }

  /// After an expression: spaces, an optional comment, then a newline or the end.
  mutating func endOfLine() throws(TOMLError) {
    skipSpaces()
    if peek() == UInt8(ascii: "#") { try skipComment() }
    guard let byte = peek() else { return }
    guard byte == UInt8(ascii: "\n") else { throw error("expected the end of the line, found \(describe(byte))") }
    index += 1
  }

  /// `[a.b]` or `[[a.b]]`: ends the section and starts the next.
  mutating func header() throws(TOMLError) {
    let start = index
    let isArray = peek(1) == UInt8(ascii: "[")
    index += isArray ? 2 : 1
    skipSpaces()
    let path = try key()
    skipSpaces()
    guard peek() == UInt8(ascii: "]"), !isArray || peek(1) == UInt8(ascii: "]") else {
      throw error(
        isArray ? "expected ']]' to close the array-of-tables header" : "expected ']' to close the table header")
    }
    index += isArray ? 2 : 1
    for table in dottedInSection { table.defined = true }
    dottedInSection = []
    var table = root
    for (position, name) in path.dropLast().enumerated() {
      switch table.children[name] {
      case nil:
        let created = TableNode()
        table.add(name, .table(created))
        table = created
      case .table(let existing):
        table = existing
      case .tableArray(let array):
        table = array.tables[array.tables.count - 1]
      case .value(let value):
        throw error(at: start, "\(quoted(path.prefix(position + 1))) is \(article(value.kind)), not a table")
      }
    }
    let name = path[path.count - 1]
    let full = quoted(path[...])
    if isArray {
      let element = TableNode()
      element.defined = true
      switch table.children[name] {
      case nil:
        let array = TableArrayNode()
        array.tables = [element]
        table.add(name, .tableArray(array))
      case .tableArray(let array):
        array.tables.append(element)
      case .table:
        throw error(at: start, "[[\(full)]]: \(full) is already a table, not an array of tables")
      case .value(let value):
        throw error(at: start, "[[\(full)]]: \(full) is already \(article(value.kind)), which cannot be extended")
      }
      current = element
    } else {
      switch table.children[name] {
      case nil:
        let created = TableNode()
        created.defined = true
        table.add(name, .table(created))
        current = created
      case .table(let existing):
        guard !existing.defined else { throw error(at: start, "table [\(full)] is defined twice") }
        existing.defined = true
        current = existing
      case .tableArray:
        throw error(at: start, "[\(full)]: \(full) is already an array of tables")
      case .value(let value):
        throw error(at: start, "[\(full)]: \(full) is already \(article(value.kind))")
      }
    }
  }

  /// `a.b = value` in the current section.
  mutating func keyValue() throws(TOMLError) {
    let start = index
    let path = try key()
    skipSpaces()
    guard peek() == UInt8(ascii: "=") else {
      throw error(
        peek() == nil || peek() == UInt8(ascii: "\n")
          ? "expected '=' after the key" : "expected '=' after the key, found \(describe(peek()!))")
    }
    index += 1
    skipSpaces()
    let value = try self.value()
    try insert(path, value, into: current, at: start, inSection: true)
  }

  /// Stores `value` under the dotted `path` below `table`, creating the tables between; in a
  /// section (not an inline table) they may not be tables defined earlier.
  mutating func insert(_ path: [String], _ value: TOMLValue, into table: TableNode, at start: Int, inSection: Bool)
    throws(TOMLError)
  {
    var table = table
    for (position, name) in path.dropLast().enumerated() {
      switch table.children[name] {
      case nil:
        let created = TableNode()
        table.add(name, .table(created))
        if inSection { dottedInSection.append(created) }
        table = created
      case .table(let existing):
        guard !existing.defined else {
          throw error(
            at: start, "dotted keys cannot add to \(quoted(path.prefix(position + 1))): that table is already defined")
        }
        // Like a table dotted keys create, it is defined once the section ends.
        if inSection { dottedInSection.append(existing) }
        table = existing
      case .tableArray:
        throw error(at: start, "dotted keys cannot add to \(quoted(path.prefix(position + 1))), an array of tables")
      case .value(let existing):
        throw error(at: start, "\(quoted(path.prefix(position + 1))) is \(article(existing.kind)), not a table")
      }
    }
    let name = path[path.count - 1]
    guard table.children[name] == nil else { throw error(at: start, "duplicate key \(quoted(path[...]))") }
    table.add(name, .value(value))
  }

  // Keys

  /// A dotted key: simple keys separated by `.` (spaces allowed around the dots).
  mutating func key() throws(TOMLError) -> [String] {
    var path = [try simpleKey()]
    while true {
      let save = index
      skipSpaces()
      guard peek() == UInt8(ascii: ".") else {
        index = save
        return path
      }
      index += 1
      skipSpaces()
      path.append(try simpleKey())
    }
  }

  /// A bare key (`A-Za-z0-9_-`), a basic string or a literal string.
  mutating func simpleKey() throws(TOMLError) -> String {
    switch peek() {
    case UInt8(ascii: "\""):
      if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") {
        throw error("a key cannot be a multi-line string")
      }
      return try basicString()
    case UInt8(ascii: "'"):
      if peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") {
        throw error("a key cannot be a multi-line string")
      }
      return try literalString()
    default:
      let start = index
      while let byte = peek(), isBareKeyByte(byte) { index += 1 }
      guard index > start else {
        throw error(
          peek().map { "expected a key, found \(describe($0))" } ?? "expected a key, found the end of the file")
      }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }
  }

  // Values

  mutating func value() throws(TOMLError) -> TOMLValue {
    guard let byte = peek() else { throw error("expected a value, found the end of the file") }
    switch byte {
    case UInt8(ascii: "\""):
      if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") { return .string(try multilineBasicString()) }
      return .string(try basicString())
    case UInt8(ascii: "'"):
      if peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") { return .string(try multilineLiteralString()) }
      return .string(try literalString())
    case UInt8(ascii: "t"), UInt8(ascii: "f"):
      let word = byte == UInt8(ascii: "t") ? "true" : "false"
      guard bytes[index...].starts(with: word.utf8) else { throw error("expected a value (true or false?)") }
      index += word.utf8.count
      return .boolean(byte == UInt8(ascii: "t"))
    case UInt8(ascii: "["):
      return try array()
    case UInt8(ascii: "{"):
      return try inlineTable()
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "i"),
      UInt8(ascii: "n"):
      return try numberOrDate()
    default:
      throw error("expected a value, found \(describe(byte))")
    }
  }

  mutating func array() throws(TOMLError) -> TOMLValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var elements: [TOMLValue] = []
    while true {
      try skipBlank()
      if peek() == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      elements.append(try value())
      try skipBlank()
      switch peek() {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      case let byte:
        throw error(byte.map { "expected ',' or ']' in an array, found \(describe($0))" } ?? "unterminated array")
      }
    }
  }

  mutating func inlineTable() throws(TOMLError) -> TOMLValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    let table = TableNode()
    skipSpaces()
    if peek() == UInt8(ascii: "}") {
      index += 1
      return .table(table.frozen())
    }
    while true {
      skipSpaces()
      let start = index
      let path = try key()
      skipSpaces()
      guard peek() == UInt8(ascii: "=") else { throw error("expected '=' after the key in an inline table") }
      index += 1
      skipSpaces()
      let value = try self.value()
      try insert(path, value, into: table, at: start, inSection: false)
      skipSpaces()
      switch peek() {
      case UInt8(ascii: ","):
        index += 1
        skipSpaces()
        if peek() == UInt8(ascii: "}") { throw error("an inline table cannot end with a comma") }
      case UInt8(ascii: "}"):
        index += 1
        return .table(table.frozen())
      case UInt8(ascii: "\n"):
        throw error("an inline table must be on one line")
      case let byte:
        throw error(
          byte.map { "expected ',' or '}' in an inline table, found \(describe($0))" } ?? "unterminated inline table")
      }
    }
  }
}
