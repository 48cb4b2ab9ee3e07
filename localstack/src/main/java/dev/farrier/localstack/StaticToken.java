package dev.farrier.localstack;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One line of kube-apiserver's {@code --token-auth-file}: {@code token,user,uid,"group1,group2"}.
 *
 * @param token the bearer token (random hex)
 * @param user the user name the API server authenticates the token as
 * @param groups the groups the user belongs to (RBAC binds roles to them)
 */
record StaticToken(String token, String user, List<String> groups) {
  private static final SecureRandom RANDOM = new SecureRandom();

  StaticToken {
    if (token.contains(",") || user.contains(",") || groups.stream().anyMatch(g -> g.contains(",") || g.contains("\""))) {
      throw new IllegalArgumentException("token, user and groups must not contain commas or quotes");
    }
    groups = List.copyOf(groups);
  }

  static StaticToken random(String user, List<String> groups) {
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    return new StaticToken(HexFormat.of().formatHex(bytes), user, groups);
  }

  /** The CSV line; the uid is the user name, which is unique in this file. */
  String csvLine() {
    return token + "," + user + "," + user + ",\"" + String.join(",", groups) + "\"";
  }

  static String csv(List<StaticToken> tokens) {
    return tokens.stream().map(StaticToken::csvLine).collect(Collectors.joining("\n", "", "\n"));
  }
}
