package dev.farrier.worker.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipFile;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * An image tarball, in OCI layout (index.json, blobs/sha256/...) or `docker save` format (manifest.json), opened as a
 * container runtime does: the manifest names the config and the layers, and {@link #unpack} applies the layers in
 * order onto an empty root, a whiteout ({@code .wh.name}, {@code .wh..wh..opq}) deleting what lower layers put there.
 */
final class ImageTarball {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String WHITEOUT = ".wh.";
  private static final String OPAQUE = ".wh..wh..opq";

  private final JsonNode config;
  private final List<Path> layers;

  private ImageTarball(JsonNode config, List<Path> layers) {
    this.config = config;
    this.layers = layers;
  }

  /** Extracts {@code tarball} into {@code dir} and reads its manifest and config. */
  static ImageTarball open(Path tarball, Path dir) throws IOException {
    try (var in = new TarArchiveInputStream(new BufferedInputStream(Files.newInputStream(tarball)))) {
      for (TarArchiveEntry entry; (entry = in.getNextEntry()) != null; ) {
        if (entry.isFile()) {
          Path target = inside(dir, entry.getName());
          Files.createDirectories(target.getParent());
          Files.copy(in, target);
        }
      }
    }
    if (Files.exists(dir.resolve("index.json"))) {
      JsonNode index = JSON.readTree(dir.resolve("index.json").toFile());
      JsonNode manifest = JSON.readTree(blob(dir, index.path("manifests").path(0)).toFile());
      List<Path> layers = new ArrayList<>();
      manifest.path("layers").forEach(layer -> layers.add(blob(dir, layer)));
      return new ImageTarball(JSON.readTree(blob(dir, manifest.path("config")).toFile()), layers);
    }
    JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile()).path(0);
    List<Path> layers = new ArrayList<>();
    manifest.path("Layers").forEach(layer -> layers.add(inside(dir, layer.asText())));
    return new ImageTarball(JSON.readTree(inside(dir, manifest.path("Config").asText()).toFile()), layers);
  }

  /** The image's runtime config: User, Entrypoint, Cmd, Env, WorkingDir, ExposedPorts. */
  JsonNode runtimeConfig() {
    return config.path("config");
  }

  /**
   * Applies the layers in order onto {@code root} (empty), with the modes the layers give. Returns every path any layer
   * holds, a jar's entries as {@code jar!/entry}: what a layer carries is shipped even when a later layer deletes it.
   */
  List<String> unpack(Path root) throws IOException {
    List<String> shipped = new ArrayList<>();
    Map<Path, Integer> directoryModes = new HashMap<>();
    for (Path layer : layers) {
      Set<Path> thisLayer = new HashSet<>();
      try (var in = new TarArchiveInputStream(decompressed(layer))) {
        for (TarArchiveEntry entry; (entry = in.getNextEntry()) != null; ) {
          shipped.add(entry.getName());
          Path target = inside(root, entry.getName());
          refuseLinkedParents(root, target);
          String name = target.getFileName() == null ? "" : target.getFileName().toString();
          if (name.equals(OPAQUE)) {
            clearLowerLayers(target.getParent(), thisLayer);
            continue;
          }
          if (name.startsWith(WHITEOUT)) {
            deleteTree(target.resolveSibling(name.substring(WHITEOUT.length())));
            continue;
          }
          thisLayer.add(target);
          if (entry.isDirectory()) {
            if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
              deleteTree(target);
              Files.createDirectories(target);
            }
            directoryModes.put(target, entry.getMode());
            continue;
          }
          Files.createDirectories(target.getParent());
          deleteTree(target);
          if (entry.isSymbolicLink()) {
            Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
          } else if (entry.isLink()) {
            Files.createLink(target, inside(root, entry.getLinkName()));
          } else if (entry.isFile()) {
            Files.copy(in, target);
            Files.setPosixFilePermissions(target, permissions(entry.getMode()));
            if (name.endsWith(".jar")) {
              jarEntries(target).forEach(e -> shipped.add(root.relativize(target) + "!/" + e));
            }
          }
        }
      }
    }
    for (var directory : directoryModes.entrySet()) {
      Files.setPosixFilePermissions(directory.getKey(), permissions(directory.getValue()));
    }
    return shipped;
  }

  /** Takes every write permission off the tree but {@code writable} (and what is under it): a read-only root. */
  static void readOnlyExcept(Path root, Path writable) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.filter(p -> !p.startsWith(writable) && !Files.isSymbolicLink(p)).toList()) {
        var mode = Files.getPosixFilePermissions(path);
        mode.removeAll(EnumSet.of(PosixFilePermission.OWNER_WRITE, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_WRITE));
        Files.setPosixFilePermissions(path, mode);
      }
    }
  }

  private static Path blob(Path dir, JsonNode descriptor) {
    String[] digest = descriptor.path("digest").asText().split(":", 2);
    return inside(dir, "blobs/" + digest[0] + "/" + digest[1]);
  }

  /** {@code name} under {@code dir}; a name that climbs out of it is refused, as a runtime must. */
  private static Path inside(Path dir, String name) {
    Path path = dir.resolve(name.replaceFirst("^(\\./|/)+", "")).normalize();
    if (!path.startsWith(dir)) {
      throw new IllegalArgumentException("a path outside the image root: " + name);
    }
    return path;
  }

  /** A symbolic link in the root means its target inside the root, not on this machine: writing through one is refused. */
  private static void refuseLinkedParents(Path root, Path target) {
    for (Path p = target.getParent(); p != null && !p.equals(root); p = p.getParent()) {
      if (Files.isSymbolicLink(p)) {
        throw new IllegalStateException("a layer writes through the symbolic link " + root.relativize(p));
      }
    }
  }

  private static void clearLowerLayers(Path directory, Set<Path> thisLayer) throws IOException {
    if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> children = Files.list(directory)) {
      for (Path child : children.filter(c -> !thisLayer.contains(c)).toList()) {
        deleteTree(child);
      }
    }
  }

  private static void deleteTree(Path path) throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static InputStream decompressed(Path layer) throws IOException {
    var in = new BufferedInputStream(Files.newInputStream(layer));
    in.mark(2);
    boolean gzip = in.read() == 0x1f && in.read() == 0x8b;
    in.reset();
    return gzip ? new GZIPInputStream(in) : in;
  }

  private static List<String> jarEntries(Path jar) throws IOException {
    try (var zip = new ZipFile(jar.toFile())) {
      return zip.stream().map(e -> e.getName()).toList();
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE, high bit first
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (0400 >> i)) != 0) {
        set.add(bits[i]);
      }
    }
    return set;
  }
}
