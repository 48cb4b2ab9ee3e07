package dev.farrier.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark's Markdown table: its preamble and header printed first, each row printed as its case finishes, and the
 * whole written to a file at the end with one note per row under {@code notesTitle}. A table that only goes to its
 * file (beside another one printed) is given a silent {@code echo}.
 */
final class MarkdownReport {
  private final List<String> preamble;
  private final String header;
  private final String rule;
  private final String notesTitle;
  private final List<String> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final PrintStream echo;

  MarkdownReport(List<String> preamble, String header, String rule, String notesTitle) {
    this(preamble, header, rule, notesTitle, System.out);
  }

  MarkdownReport(List<String> preamble, String header, String rule, String notesTitle, PrintStream echo) {
    this.preamble = List.copyOf(preamble);
    this.header = header;
    this.rule = rule;
    this.notesTitle = notesTitle;
    this.echo = echo;
  }

  void printHeader() {
    preamble.forEach(echo::println);
    echo.println();
    echo.println(header);
    echo.println(rule);
  }

  void add(String row, String note) {
    rows.add(row);
    notes.add(note);
    echo.println(row);
  }

  /** A note of no row, printed now and written after the rows' notes. */
  void note(String note) {
    notes.add(note);
    echo.println(note);
  }

  void write(Path file) throws IOException {
    List<String> lines = new ArrayList<>(preamble);
    lines.add("");
    lines.add(header);
    lines.add(rule);
    lines.addAll(rows);
    lines.add("");
    lines.add(notesTitle);
    lines.addAll(notes);
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, lines);
    echo.println();
    echo.println("written to " + file);
  }
}
