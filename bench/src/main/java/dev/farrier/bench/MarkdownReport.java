package dev.farrier.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark's Markdown table: its preamble and header printed first, each row printed as its case finishes, and the
 * whole written to a file at the end with one note per row under {@code notesTitle}.
 */
final class MarkdownReport {
  private final List<String> preamble;
  private final String header;
  private final String rule;
  private final String notesTitle;
  private final List<String> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  MarkdownReport(List<String> preamble, String header, String rule, String notesTitle) {
    this.preamble = List.copyOf(preamble);
    this.header = header;
    this.rule = rule;
    this.notesTitle = notesTitle;
  }

  void printHeader() {
    preamble.forEach(System.out::println);
    System.out.println();
    System.out.println(header);
    System.out.println(rule);
  }

  void add(String row, String note) {
    rows.add(row);
    notes.add(note);
    System.out.println(row);
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
    System.out.println();
    System.out.println("written to " + file);
  }
}
