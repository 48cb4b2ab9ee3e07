package dev.farrier.starter;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** {@code farrier list}'s output: a table for people, a JSON array for scripts. */
final class ReplacementTable {
  private ReplacementTable() {}

  private record Column(String header, Function<ReplacementRow, String> value) {}

  private static final List<Column> COLUMNS = List.of(
      new Column("NODECLAIM", ReplacementRow::nodeClaim),
      new Column("NODE", ReplacementRow::node),
      new Column("NODEPOOL", ReplacementRow::nodePool),
      new Column("REASON", ReplacementRow::reason),
      new Column("PHASE", ReplacementRow::phase),
      new Column("BLOCKED-FOR", ReplacementTable::blockedFor),
      new Column("BLOCKER", ReplacementRow::blocker));

  /** With closed replacements listed too, their execution status says how each ended. */
  private static final Column STATUS = new Column("STATUS", ReplacementRow::status);

  static String text(List<ReplacementRow> rows, boolean withStatus) {
    List<Column> columns = new ArrayList<>(COLUMNS);
    if (withStatus) {
      columns.add(5, STATUS);
    }
    List<List<String>> cells = new ArrayList<>();
    cells.add(columns.stream().map(Column::header).toList());
    rows.forEach(row -> cells.add(columns.stream().map(c -> orDash(c.value().apply(row))).toList()));
    int[] widths = new int[columns.size()];
    cells.forEach(line -> {
      for (int i = 0; i < widths.length; i++) {
        widths[i] = Math.max(widths[i], line.get(i).length());
      }
    });
    var out = new StringBuilder();
    for (List<String> line : cells) {
      var text = new StringBuilder();
      for (int i = 0; i < widths.length; i++) {
        // The last column (the blocker's words) is not padded: it is the long one.
        text.append(i == widths.length - 1 ? line.get(i) : String.format("%-" + (widths[i] + 3) + "s", line.get(i)));
      }
      out.append(text.toString().stripTrailing()).append(System.lineSeparator());
    }
    return out.toString();
  }

  static String json(List<ReplacementRow> rows) {
    return Json.write(rows);
  }

  /** "2m13s"; "-" when nothing blocks; "?" when something does but the workflow did not say since when. */
  private static String blockedFor(ReplacementRow row) {
    if (row.blocker() == null) {
      return null;
    }
    return row.blockedForSeconds() == null ? "?" : BlockedFor.format(row.blockedForSeconds());
  }

  private static String orDash(String value) {
    return value == null || value.isEmpty() ? "-" : value;
  }
}
