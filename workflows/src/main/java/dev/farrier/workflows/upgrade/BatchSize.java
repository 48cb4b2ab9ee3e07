package dev.farrier.workflows.upgrade;

/**
 * A batch size as {@code --batch-size} takes it: a count ({@code 2}) or a percentage of the nodes to roll
 * ({@code 25%}, rounded up, at least 1).
 */
public record BatchSize(int value, boolean percent) {
  public BatchSize {
    if (value < 1 || (percent && value > 100)) {
      throw new IllegalArgumentException("a batch size is a count of at least 1 or a percentage from 1% to 100%, not "
          + value + (percent ? "%" : ""));
    }
  }

  /** Parses {@code 2} or {@code 25%}; throws {@link IllegalArgumentException} naming the text. */
  public static BatchSize parse(String text) {
    String t = text == null ? "" : text.strip();
    boolean percent = t.endsWith("%");
    String digits = percent ? t.substring(0, t.length() - 1) : t;
    if (!digits.matches("[0-9]{1,9}")) {
      throw new IllegalArgumentException("batch size '" + text + "' is not a count (2) or a percentage (25%)");
    }
    return new BatchSize(Integer.parseInt(digits), percent);
  }

  /** How many nodes of {@code total} one batch takes. */
  public int of(int total) {
    if (!percent) {
      return value;
    }
    return Math.max(1, (int) Math.ceil(total * (value / 100.0)));
  }

  @Override
  public String toString() {
    return value + (percent ? "%" : "");
  }
}
