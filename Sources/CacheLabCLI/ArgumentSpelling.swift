import ArgumentParser
import CacheCore

/// Catches mistyped subcommands and options before parsing, so `--policy lru` says
/// "unknown option '--policy' (did you mean '--policies'?)" instead of a later, confusing
/// complaint. Known options are read from each command's own help text.
enum ArgumentSpelling {
  /// The usage error for `arguments` (without the program name) and the command it concerns,
  /// or nil if every subcommand and option is known.
  static func problem(_ arguments: [String], root: any ParsableCommand.Type) -> (
    command: String, message: String
  )? {
    var command = root
    var path = [name(of: root)]
    var rest = arguments[...]
    while let next = rest.first, !next.hasPrefix("-") {
      let children = command.configuration.subcommands
      guard !children.isEmpty else { break }
      guard let child = children.first(where: { name(of: $0) == next }) else {
        if next == "help" { return nil }
        return (
          path.joined(separator: " "),
          "unknown subcommand '\(next)'" + Spelling.suggestion(for: next, among: children.map(name(of:)))
        )
      }
      command = child
      path.append(next)
      rest = rest.dropFirst()
    }
    let known = options(of: command)
    for argument in rest {
      if argument == "--" { break }
      guard argument.hasPrefix("--"), argument.count > 2 else { continue }
      let option = String(argument.split(separator: "=", maxSplits: 1)[0])
      guard !known.contains(option) else { continue }
      return (
        path.joined(separator: " "), "unknown option '\(option)'" + Spelling.suggestion(for: option, among: known)
      )
    }
    return nil
  }

  private static func name(of command: any ParsableCommand.Type) -> String {
    command.configuration.commandName ?? String(describing: command).lowercased()
  }

  /// Every `--name` the command's help mentions, plus `--help` and `--version`.
  static func options(of command: any ParsableCommand.Type) -> Set<String> {
    var names: Set<String> = [
      "--help", "--version", "--experimental-dump-help", "--generate-completion-script", "--study-file",
    ]
    names.formUnion(OptionalValues.bare.values)
    let help = Array(command.helpMessage(columns: 400))
    var index = 0
    while index + 2 < help.count {
      guard help[index] == "-", help[index + 1] == "-", index == 0 || !help[index - 1].isLetter else {
        index += 1
        continue
      }
      var end = index + 2
      while end < help.count, help[end].isLetter || help[end].isNumber || help[end] == "-" { end += 1 }
      if end > index + 2 { names.insert(String(help[index..<end])) }
      index = end
    }
    return names
  }
}
