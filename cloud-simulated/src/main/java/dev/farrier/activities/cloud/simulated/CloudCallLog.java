package dev.farrier.activities.cloud.simulated;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The append-only log of every mutating call ({@code calls.jsonl} in the state directory, one JSON object per
 * line), readable from any process while the cloud is in use, so tests can assert order and counts (e.g. exactly
 * one {@link CloudCall.Operation#CREATE} and one {@link CloudCall.Operation#TERMINATE} for a replacement).
 */
public final class CloudCallLog {
  static final String FILE_NAME = "calls.jsonl";

  private final Path file;

  public CloudCallLog(Path stateDir) {
    this.file = stateDir.resolve(FILE_NAME);
  }

  /** Every call so far, oldest first. A line still being written by another process is left out. */
  public List<CloudCall> read() {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the simulated cloud's call log " + file, e);
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    int complete = text.lastIndexOf('\n') + 1;
    List<CloudCall> calls = new ArrayList<>();
    for (String line : text.substring(0, complete).split("\n")) {
      if (!line.isBlank()) {
        try {
          calls.add(SimulatedJson.MAPPER.readValue(line, CloudCall.class));
        } catch (JsonProcessingException e) {
          throw new IllegalStateException("corrupt line in " + file + ": " + line, e);
        }
      }
    }
    return calls;
  }

  /** The calls of one operation, oldest first. */
  public List<CloudCall> read(CloudCall.Operation operation) {
    return read().stream().filter(c -> c.operation() == operation).toList();
  }

  /** How many calls of {@code operation} named {@code nodeClaim}. */
  public long count(CloudCall.Operation operation, String nodeClaim) {
    return read().stream().filter(c -> c.operation() == operation && nodeClaim.equals(c.nodeClaim())).count();
  }

  /** Appends one line in a single write; the caller holds the state lock, so lines never interleave. */
  void append(CloudCall call) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      byte[] line = (SimulatedJson.MAPPER.writeValueAsString(call) + "\n").getBytes(StandardCharsets.UTF_8);
      ByteBuffer buffer = ByteBuffer.wrap(line);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to the simulated cloud's call log " + file, e);
    }
  }
}
