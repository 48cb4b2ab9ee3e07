package dev.farrier.activities.cloud.simulated;

import java.util.Map;

/** An IAM instance profile the simulated cloud knows: Farrier's managed ones and those a test registered. */
record StoredInstanceProfile(String name, String role, Map<String, String> tags) {
  StoredInstanceProfile {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
  }

  StoredInstanceProfile withRole(String newRole) {
    return new StoredInstanceProfile(name, newRole, tags);
  }
}
