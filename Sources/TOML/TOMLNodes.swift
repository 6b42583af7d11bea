/// A table while the document is read: its entries and whether a header (or, once its
/// section ended, dotted keys) defined it.
final class TableNode {
  var keys: [String] = []
  var children: [String: Node] = [:]
  /// Defined by a `[header]`, or by dotted keys in a section that has ended: a header may
  /// not define it again, dotted keys may not add to it.
  var defined = false

  func add(_ key: String, _ node: Node) {
    keys.append(key)
    children[key] = node
  }

  /// The finished table.
  func frozen() -> TOMLTable {
    var table = TOMLTable()
    for key in keys {
      switch children[key]! {
      case .value(let value): table.append(key, value)
      case .table(let node): table.append(key, .table(node.frozen()))
      case .tableArray(let array): table.append(key, .array(array.tables.map { .table($0.frozen()) }))
      }
    }
    return table
  }
}

/// An array of tables (`[[name]]`), which later headers extend.
final class TableArrayNode {
  var tables: [TableNode] = []
}

/// What a key holds while the document is read. Values (inline tables and arrays included)
/// are finished and cannot be extended.
enum Node {
  case value(TOMLValue)
  case table(TableNode)
  case tableArray(TableArrayNode)
}
