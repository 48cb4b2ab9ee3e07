package dev.farrier.activities.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The repository's test classes by simple name, to check that a row's {@code Class#method} exists and to link it. */
final class TestMethods {
  private final Path root;
  private final Map<String, List<Path>> bySimpleName;

  TestMethods(Path root) {
    this.root = root;
    try (Stream<Path> files = Files.walk(root, 12)) {
      bySimpleName = files.filter(p -> p.toString().contains("/src/test/java/") && p.toString().endsWith(".java"))
          .filter(p -> !p.toString().contains("/target/"))
          .collect(Collectors.groupingBy(p -> p.getFileName().toString().replaceFirst("\\.java$", "")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The file of {@code Class#method} relative to the repository, when the class is unique and declares the method. */
  Optional<Path> find(String reference) {
    String[] parts = reference.split("#", 2);
    List<Path> files = bySimpleName.getOrDefault(parts[0], List.of());
    if (parts.length != 2 || files.size() != 1) {
      return Optional.empty();
    }
    Pattern declaration = Pattern.compile("\\bvoid\\s+" + Pattern.quote(parts[1]) + "\\s*\\(");
    try {
      return declaration.matcher(Files.readString(files.getFirst())).find()
          ? Optional.of(root.relativize(files.getFirst())) : Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
