package dev.farrier.activities.cloud.aws.userdata;

import java.util.Locale;

/** How one image family's nodes read their bootstrap from user data. */
public interface UserDataFormat {
  /** The user data (plain text, not yet base64) for {@code node}. */
  String render(NodeBootstrap node);

  /**
   * The format of {@code amiFamily} (AL2023, AL2, Bottlerocket, Windows2019, Windows2022, Windows2025, Custom;
   * case-insensitive). Throws {@link IllegalArgumentException} for any other family.
   */
  static UserDataFormat of(String amiFamily) {
    return switch (amiFamily == null ? "" : amiFamily.toLowerCase(Locale.ROOT)) {
      case "al2023" -> new Al2023UserData();
      case "al2" -> new Al2UserData();
      case "bottlerocket" -> new BottlerocketUserData();
      case "custom" -> new CustomUserData();
      case "windows2019", "windows2022", "windows2025" -> new WindowsUserData();
      default -> throw new IllegalArgumentException("amiFamily '" + amiFamily
          + "' is not supported; use AL2023, AL2, Bottlerocket, Windows2019, Windows2022, Windows2025 or Custom");
    };
  }
}
