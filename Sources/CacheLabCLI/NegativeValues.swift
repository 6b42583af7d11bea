/// Lets an option take a negative number (`--repeat -1`), which the argument parser would
/// read as a missing value followed by an unknown flag: `--name -N` becomes `--name=-N`, so
/// the option's own check says what it accepts. No option's name starts with a digit.
enum NegativeValues {
  /// `arguments` with each `--name -N` pair (N a number, up to `--`) joined into one.
  static func joined(_ arguments: [String]) -> [String] {
    var result: [String] = []
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      if argument == "--" {
        result += arguments[index...]
        break
      }
      if argument.hasPrefix("--"), !argument.contains("="), index + 1 < arguments.endIndex,
        isNegativeNumber(arguments[index + 1])
      {
        result.append(argument + "=" + arguments[index + 1])
        index += 2
        continue
      }
      result.append(argument)
      index += 1
    }
    return result
  }

  /// Whether `text` starts like a negative number (`-1`, `-0.5`, `-5r`, `-1/3`).
  private static func isNegativeNumber(_ text: String) -> Bool {
    let characters = Array(text.utf8.prefix(2))
    guard characters.count == 2, characters[0] == UInt8(ascii: "-") else { return false }
    return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[1]) || characters[1] == UInt8(ascii: ".")
  }
}

/// Finds an option given twice on the command line, which the argument parser would settle
/// silently by keeping the last value (`--memory lru:1MiB --memory lru:2MiB`).
enum RepeatedOptions {
  /// The first `--name` that appears twice before `--`, or nil.
  static func first(in arguments: [String]) -> String? {
    var seen: Set<Substring> = []
    for argument in arguments {
      if argument == "--" { break }
      guard argument.hasPrefix("--"), argument.count > 2 else { continue }
      let name = argument.split(separator: "=", maxSplits: 1)[0]
      if !seen.insert(name).inserted { return String(name) }
    }
    return nil
  }
}
