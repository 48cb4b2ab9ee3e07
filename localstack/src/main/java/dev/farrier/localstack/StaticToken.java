package dev.farrier.localstack;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * One line of kube-apiserver's {@code --token-auth-file}, a CSV file: {@code token,user,uid,"group1,group2"}.
 *
 * @param token the bearer token (random hex)
 * @param user the user name the API server authenticates the token as
 * @param groups the groups the user belongs to (RBAC binds roles to them)
 */
record StaticToken(String token, String user, List<String> groups) {
  private static final SecureRandom RANDOM = new SecureRandom();
  /** Four columns, no header, one line per token: what the API server's reader (Go's encoding/csv) takes. */
  private static final ObjectWriter CSV = new CsvMapper().writer(CsvSchema.builder()
      .addColumn("token").addColumn("user").addColumn("uid").addColumn("groups")
      .setUseHeader(false).setLineSeparator("\n").build());

  StaticToken {
    // The API server splits the groups column on commas: a group cannot hold one.
    if (groups.stream().anyMatch(g -> g.contains(","))) {
      throw new IllegalArgumentException("a group name cannot contain a comma: " + groups);
    }
    groups = List.copyOf(groups);
  }

  static StaticToken random(String user, List<String> groups) {
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    return new StaticToken(HexFormat.of().formatHex(bytes), user, groups);
  }

  /** The token file: one CSV line per token; the uid is the user name, which is unique in this file. */
  static String csv(List<StaticToken> tokens) {
    try {
      return CSV.writeValueAsString(tokens.stream().map(t -> List.of(t.token, t.user, t.user, String.join(",", t.groups))).toList());
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
