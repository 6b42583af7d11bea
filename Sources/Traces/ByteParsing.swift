import CacheCore

/// Number and key parsing straight from bytes, without creating strings.
enum ByteParsing {
  /// The field without leading and trailing spaces and tabs.
  @inline(__always)
  static func trim(_ field: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    var lower = 0
    let upper = trimmedEnd(field)
    while lower < upper, field[lower] == 0x20 || field[lower] == 0x09 { lower += 1 }
    return UnsafeRawBufferPointer(rebasing: field[lower..<upper])
  }

  /// Whether `field` spells the ASCII letters of `literal`, ignoring case (no String made).
  @inline(__always)
  static func equalsIgnoringCase(_ field: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
    guard field.count == literal.utf8CodeUnitCount else { return false }
    for index in 0..<field.count where field[index] | 0x20 != literal.utf8Start[index] | 0x20 { return false }
    return true
  }

  /// Whether `bytes` may hold a byte below 0x20 (a tab counts): false proves there is none.
  /// Eight bytes a step.
  @inline(__always)
  static func mayHoldControlBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      // A byte below 0x20 borrows in `word - 0x20…` and keeps its high bit clear in `word`.
      if (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0 { return true }
      offset += 8
    }
    while offset < bytes.count {
      if bytes[offset] < 0x20 { return true }
      offset += 1
    }
    return false
  }

  /// The offset of the first `byte` in `bytes[start..<end]`, or nil. Eight bytes a step (no
  /// call: log values are short).
  @inline(__always)
  static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let spread = UInt64(byte) &* 0x0101_0101_0101_0101
    var offset = start
    while offset + 8 <= end {
      let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ spread
      // The lowest flagged byte is the first zero of `word` (borrows only run upwards).
      let zeros = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
      if zeros != 0 { return offset + zeros.trailingZeroBitCount / 8 }
      offset += 8
    }
    while offset < end {
      if bytes[offset] == byte { return offset }
      offset += 1
    }
    return nil
  }

  /// The length of `field` without its trailing spaces and tabs.
  @inline(__always)
  static func trimmedEnd(_ field: UnsafeRawBufferPointer) -> Int {
    var upper = field.count
    while upper > 0, field[upper - 1] == 0x20 || field[upper - 1] == 0x09 { upper -= 1 }
    return upper
  }

  /// A non-negative decimal integer, or nil (empty, non-digit or overflow).
  @inline(__always)
  static func unsigned(_ field: UnsafeRawBufferPointer) -> UInt64? {
    guard !field.isEmpty else { return nil }
    // Up to 19 digits cannot overflow (10^19 - 1 < 2^64): no checks but the digit test.
    guard field.count > 19 else {
      var value: UInt64 = 0
      for byte in field {
        let digit = byte &- 0x30
        guard digit < 10 else { return nil }
        value = value &* 10 &+ UInt64(digit)
      }
      return value
    }
    var value: UInt64 = 0
    for byte in field {
      let digit = byte &- 0x30
      guard digit < 10 else { return nil }
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
    }
    return value
  }

  /// A decimal integer with an optional sign, or nil.
  static func signed(_ field: UnsafeRawBufferPointer) -> Int64? {
    guard let first = field.first else { return nil }
    if first == 0x2D || first == 0x2B {
      guard let magnitude = unsigned(UnsafeRawBufferPointer(rebasing: field.dropFirst())) else { return nil }
      if first == 0x2B { return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil }
      return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
    }
    guard let magnitude = unsigned(field), magnitude <= UInt64(Int64.max) else { return nil }
    return Int64(magnitude)
  }

  /// A non-negative time in `unit` (integer or decimal, e.g. `12.25`) as microseconds.
  static func microseconds(_ field: UnsafeRawBufferPointer, unit: TimeUnit) -> Int64? {
    // The common forms, `digits` and `digits.digits`, in one pass.
    var whole: UInt64 = 0
    var index = 0
    while index < min(field.count, 18) {
      let digit = field[index] &- 0x30
      guard digit < 10 else { break }
      whole = whole &* 10 &+ UInt64(digit)
      index += 1
    }
    if index == field.count, index > 0 {
      guard let micros = unit.microseconds(whole), micros < Request.timeLimit else { return nil }
      return micros
    }
    if index < field.count, field[index] == 0x2E, index > 0 || index + 1 < field.count,
      let micros = fractionMicroseconds(whole, UnsafeRawBufferPointer(rebasing: field[(index + 1)...]), unit: unit)
    {
      return micros
    }
    return microsecondsSlowly(field, unit: unit)
  }

  /// ``microseconds(_:unit:)`` for the forms its single pass leaves: more than 18 integer
  /// digits, and the exponent form.
  private static func microsecondsSlowly(_ field: UnsafeRawBufferPointer, unit: TimeUnit) -> Int64? {
    if let whole = unsigned(field) {
      guard let micros = unit.microseconds(whole), micros < Request.timeLimit else { return nil }
      return micros
    }
    if let micros = decimalMicroseconds(field, unit: unit) { return micros }
    // Exponent form: rare, so parse through Double.
    guard !field.isEmpty, field.count < 64,
      let value = Double(String(decoding: field, as: UTF8.self)), value.isFinite, value >= 0
    else { return nil }
    let micros = (value * unit.microsecondsPerUnit).rounded(.down)
    return micros < Double(Request.timeLimit) ? Int64(micros) : nil
  }
}

extension ByteParsing {
  /// `digits.digits` in `unit` as microseconds, exactly (fraction digits beyond one
  /// microsecond are dropped, as rounding down does), or nil for any other form.
  @inline(__always)
  static func decimalMicroseconds(_ field: UnsafeRawBufferPointer, unit: TimeUnit) -> Int64? {
    guard let dot = field.firstIndex(of: 0x2E) else { return nil }
    let integer = UnsafeRawBufferPointer(rebasing: field[..<dot])
    let fraction = UnsafeRawBufferPointer(rebasing: field[(dot + 1)...])
    guard !integer.isEmpty || !fraction.isEmpty else { return nil }
    guard let whole = integer.isEmpty ? 0 : unsigned(integer) else { return nil }
    return fractionMicroseconds(whole, fraction, unit: unit)
  }

  /// `whole` and the digits of `fraction` in `unit` as microseconds (digits beyond one
  /// microsecond dropped), or nil when a byte is not a digit or the time is out of range.
  @inline(__always)
  static func fractionMicroseconds(_ whole: UInt64, _ fraction: UnsafeRawBufferPointer, unit: TimeUnit) -> Int64? {
    guard let base = unit.microseconds(whole) else { return nil }
    let places: Int
    switch unit {
    case .s: places = 6
    case .ms: places = 3
    case .us, .ns: places = 0
    }
    var micros: Int64 = 0
    for (index, byte) in fraction.enumerated() {
      let digit = byte &- 0x30
      guard digit < 10 else { return nil }
      if index < places { micros = micros * 10 + Int64(digit) }
    }
    for _ in min(fraction.count, places)..<places { micros *= 10 }
    let (total, overflow) = base.addingReportingOverflow(micros)
    return !overflow && total < Request.timeLimit ? total : nil
  }
}

/// How text keys become numeric object ids.
enum KeyType: String, CaseIterable {
  /// Decimal integers as-is, anything else hashed.
  case auto
  /// Decimal integers only (negative values are taken as their bit pattern).
  case int
  /// Every key hashed as text.
  case string

  static let spec = ParameterSpec(
    "key-type", default: "auto", .choice(KeyType.allCases.map(\.rawValue)),
    help: "auto: integers as-is, other keys hashed; int: integers only; string: always hash")

  /// The object id of `field`, or nil if it is not acceptable.
  @inline(__always)
  func key(_ field: UnsafeRawBufferPointer) -> UInt64? {
    guard !field.isEmpty else { return nil }
    switch self {
    case .auto:
      if let value = ByteParsing.unsigned(field) { return value }
      if let value = ByteParsing.signed(field) { return UInt64(bitPattern: value) }
      return KeyHash.hash(field)
    case .int:
      if let value = ByteParsing.unsigned(field) { return value }
      return ByteParsing.signed(field).map { UInt64(bitPattern: $0) }
    case .string:
      return KeyHash.hash(field)
    }
  }
}

/// The unit of a text trace's time column.
enum TimeUnit: String, CaseIterable {
  case s, ms, us, ns

  static let spec = ParameterSpec(
    "time-unit", default: "s", .choice(TimeUnit.allCases.map(\.rawValue)),
    help: "unit of the time column: s, ms, us or ns")

  var microsecondsPerUnit: Double {
    switch self {
    case .s: return 1e6
    case .ms: return 1e3
    case .us: return 1
    case .ns: return 1e-3
    }
  }

  /// `value` of this unit in microseconds, or nil on overflow.
  func microseconds(_ value: UInt64) -> Int64? {
    switch self {
    case .s: return value <= UInt64(Int64.max / 1_000_000) ? Int64(value) * 1_000_000 : nil
    case .ms: return value <= UInt64(Int64.max / 1_000) ? Int64(value) * 1_000 : nil
    case .us: return value <= UInt64(Int64.max) ? Int64(value) : nil
    case .ns: return Int64(value / 1_000)
    }
  }
}

/// Whether a line holds only spaces and tabs.
@inline(__always)
func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
  for byte in line where byte != 0x20 && byte != 0x09 { return false }
  return true
}

/// Whether `line` holds only spaces and tabs, checking first that it holds no NUL or other
/// control byte that marks binary data (then it throws that message). Eight bytes a step.
@inline(__always)
func isBlankText(_ line: UnsafeRawBufferPointer) throws(LineError) -> Bool {
  if ByteParsing.mayHoldControlBytes(line), let problem = binaryDataProblem(line) { throw LineError(problem) }
  for byte in line where byte > 0x20 { return false }
  return true
}

/// Returns a message if `line` holds a NUL or other control byte that marks binary data.
@inline(__always)
func binaryDataProblem(_ line: UnsafeRawBufferPointer) -> String? {
  for byte in line where byte < 0x20 && byte != 0x09 {
    return "unexpected control byte 0x\(String(byte, radix: 16)) (is this a binary trace? choose its --format)"
  }
  return nil
}
