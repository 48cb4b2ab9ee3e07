package dev.farrier.migrate;

/**
 * One line of a migration report.
 *
 * @param kind    what it is: a change made, an old default kept, a new default the user now gets, or work for a person
 * @param object  the object it is about, as {@code Kind/name}
 * @param source  the input it came from (a file name, {@code -} for standard input, {@code cluster})
 * @param line    the 1-based line of the field in that input (0 when the field was absent)
 * @param field   the field's path in the old object ({@code spec.ttlSecondsAfterEmpty}), or empty for the object
 * @param message what happened and why, in plain words
 */
public record Finding(Kind kind, String object, String source, int line, String field, String message) {
  public enum Kind {
    /** A field moved, renamed or converted; the behaviour is the same. */
    CHANGED,
    /** A default changed between the old API and v1; the old value is now written explicitly. */
    KEPT_DEFAULT,
    /** A behaviour that changed in v1 and that the manifest cannot pin; said so the user is not surprised. */
    NEW_BEHAVIOUR,
    /** Not migrated: a person must decide (farrier migrate --check exits non-zero). */
    NEEDS_PERSON
  }

  /** {@code source:line} (or the source alone when the line is not known). */
  public String where() {
    return line > 0 ? source + ":" + line : source;
  }
}
