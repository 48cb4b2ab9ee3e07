package dev.farrier.activities.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class InstanceTypeNameTest {
  @Test
  void instanceTypeNamesSplitLikeKarpenter() {
    assertEquals(new InstanceTypeName("m7gd", "m", "7", "2xlarge"), InstanceTypeName.parse("m7gd.2xlarge"));
    assertEquals(new InstanceTypeName("u-6tb1", "u", "1", "metal"), InstanceTypeName.parse("u-6tb1.metal"));
    assertEquals(new InstanceTypeName("inf2", "inf", "2", "xlarge"), InstanceTypeName.parse("inf2.xlarge"));
  }
}
