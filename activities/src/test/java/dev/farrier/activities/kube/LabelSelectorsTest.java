package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LabelSelectorsTest {
  private static final Map<String, String> POD = Map.of("app", "inflate", "tier", "web");

  @Test
  void nullSelectsNothingAndEmptySelectsEverything() {
    assertFalse(LabelSelectors.matches(null, POD));
    assertTrue(LabelSelectors.matches(new LabelSelector(), POD));
  }

  @Test
  void matchLabelsAndExpressionsAreAnded() {
    LabelSelector selector = new LabelSelectorBuilder()
        .addToMatchLabels("app", "inflate")
        .addNewMatchExpression().withKey("tier").withOperator("In").withValues("web", "api").endMatchExpression()
        .addNewMatchExpression().withKey("canary").withOperator("DoesNotExist").endMatchExpression()
        .build();

    assertTrue(LabelSelectors.matches(selector, POD));
    assertFalse(LabelSelectors.matches(selector, Map.of("app", "inflate", "tier", "db")));
    assertFalse(LabelSelectors.matches(selector, Map.of("app", "inflate", "tier", "web", "canary", "1")));
    assertFalse(LabelSelectors.matches(selector, Map.of("tier", "web")));
  }
}
