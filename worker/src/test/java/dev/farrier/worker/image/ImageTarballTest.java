package dev.farrier.worker.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The unpacking ImageIT relies on, on small OCI tarballs made here: layer order, whiteouts, modes, escapes refused. */
class ImageTarballTest {
  @TempDir
  Path dir;

  @Test
  void appliesLayersInOrderWithTheirWhiteouts() throws Exception {
    var lower = layer(Map.of("etc/", "", "etc/passwd", "root", "etc/gone", "x", "opt/old/a", "a", "opt/old/b", "b"), true);
    var upper = layer(Map.of("etc/.wh.gone", "", "etc/passwd", "nonroot", "opt/old/.wh..wh..opq", "", "opt/old/c", "c"), false);
    var image = ImageTarball.open(tarball(List.of(lower, upper)), Files.createDirectories(dir.resolve("open")));
    Path root = Files.createDirectories(dir.resolve("root"));

    List<String> shipped = image.unpack(root);

    assertEquals("nonroot", Files.readString(root.resolve("etc/passwd")));
    assertFalse(Files.exists(root.resolve("etc/gone")), "a whiteout deletes the lower layer's file");
    assertFalse(Files.exists(root.resolve("opt/old/a")), "an opaque directory hides the lower layer's content");
    assertEquals("c", Files.readString(root.resolve("opt/old/c")), "but keeps its own layer's");
    assertTrue(shipped.contains("etc/gone"), "what a layer ships is listed even when a later layer deletes it");
    assertEquals("65532:65532", image.runtimeConfig().path("User").asText());
    assertTrue(Files.isExecutable(root.resolve("etc/passwd")), "modes come from the layer (0755 here)");
  }

  @Test
  void refusesAPathOutsideTheRoot() throws Exception {
    var escaping = layer(Map.of("../outside", "x"), false);
    var image = ImageTarball.open(tarball(List.of(escaping)), Files.createDirectories(dir.resolve("open")));
    assertThrows(IllegalArgumentException.class, () -> image.unpack(Files.createDirectories(dir.resolve("root"))));
    assertFalse(Files.exists(dir.resolve("outside")));
  }

  /** A layer's tar (gzipped or not): names ending in / are directories, the rest files of mode 0755. */
  private static byte[] layer(Map<String, String> entries, boolean gzip) throws IOException {
    var bytes = new ByteArrayOutputStream();
    try (OutputStream out = gzip ? new GZIPOutputStream(bytes) : bytes; var tar = new TarArchiveOutputStream(out)) {
      for (var entry : new TreeMap<>(entries).entrySet()) {
        var tarEntry = new TarArchiveEntry(entry.getKey());
        byte[] content = entry.getValue().getBytes(StandardCharsets.UTF_8);
        if (!entry.getKey().endsWith("/")) {
          tarEntry.setSize(content.length);
          tarEntry.setMode(0100755);
        }
        tar.putArchiveEntry(tarEntry);
        tar.write(content);
        tar.closeArchiveEntry();
      }
    }
    return bytes.toByteArray();
  }

  /** An OCI image layout holding one manifest with these layers and a config whose user is 65532. */
  private Path tarball(List<byte[]> layers) throws IOException, NoSuchAlgorithmException {
    Map<String, byte[]> blobs = new LinkedHashMap<>();
    var layerDescriptors = new StringBuilder();
    for (byte[] layer : layers) {
      layerDescriptors.append(layerDescriptors.isEmpty() ? "" : ",").append(descriptor(blobs, layer));
    }
    String config = descriptor(blobs, "{\"config\":{\"User\":\"65532:65532\"}}".getBytes(StandardCharsets.UTF_8));
    String manifest = descriptor(blobs, ("{\"schemaVersion\":2,\"config\":" + config + ",\"layers\":[" + layerDescriptors
        + "]}").getBytes(StandardCharsets.UTF_8));
    Path tarball = dir.resolve("image.tar");
    try (var tar = new TarArchiveOutputStream(Files.newOutputStream(tarball))) {
      put(tar, "index.json", ("{\"schemaVersion\":2,\"manifests\":[" + manifest + "]}").getBytes(StandardCharsets.UTF_8));
      for (var blob : blobs.entrySet()) {
        put(tar, "blobs/sha256/" + blob.getKey(), blob.getValue());
      }
    }
    return tarball;
  }

  private static String descriptor(Map<String, byte[]> blobs, byte[] content) throws NoSuchAlgorithmException {
    String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    blobs.put(digest, content);
    return "{\"digest\":\"sha256:" + digest + "\",\"size\":" + content.length + "}";
  }

  private static void put(TarArchiveOutputStream tar, String name, byte[] content) throws IOException {
    var entry = new TarArchiveEntry(name);
    entry.setSize(content.length);
    tar.putArchiveEntry(entry);
    tar.write(content);
    tar.closeArchiveEntry();
  }
}
