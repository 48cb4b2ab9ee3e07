package dev.farrier.activities.cloud;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the catalogues shipped on the classpath ({@code ec2/*.csv}, {@code amis/*.csv}). They are plain CSV
 * without quoting (checked when they were extracted), so a split on commas is exact.
 */
public final class CsvResource {
  private CsvResource() {}

  /** Each row as column name -> value (empty string for an empty cell). */
  public static List<Map<String, String>> read(String resource) {
    InputStream in = CsvResource.class.getClassLoader().getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException("classpath resource " + resource + " is missing from the build");
    }
    return read(in, "classpath resource " + resource);
  }

  /** The same, from a file (an operator's refreshed copy of a shipped table). */
  public static List<Map<String, String>> read(Path file) {
    try {
      return read(Files.newInputStream(file), "file " + file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static List<Map<String, String>> read(InputStream in, String resource) {
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String header = reader.readLine();
      if (header == null) {
        throw new IllegalStateException(resource + " is empty");
      }
      String[] columns = header.split(",", -1);
      List<Map<String, String>> rows = new ArrayList<>();
      int lineNumber = 1;
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lineNumber++;
        if (line.isBlank()) {
          continue;
        }
        String[] cells = line.split(",", -1);
        if (cells.length != columns.length) {
          throw new IllegalStateException(resource + " line " + lineNumber + " has " + cells.length
              + " cells, the header has " + columns.length);
        }
        Map<String, String> row = HashMap.newHashMap(columns.length);
        for (int i = 0; i < columns.length; i++) {
          row.put(columns[i], cells[i]);
        }
        rows.add(row);
      }
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
