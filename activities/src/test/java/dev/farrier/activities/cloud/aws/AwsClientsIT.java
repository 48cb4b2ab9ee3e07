package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every client reaches moto through the endpoint override, each with its own protocol (query, JSON). */
class AwsClientsIT extends MotoIT {
  @Test
  void eachClientReachesTheEmulator() {
    assertTrue(aws.ec2().describeRegions().regions().stream().anyMatch(r -> r.regionName().equals(REGION)));

    String parameter = "/" + unique("farrier-it") + "/image_id";
    aws.ssm().putParameter(b -> b.name(parameter).value("ami-0123456789abcdef0").type("String"));
    assertEquals("ami-0123456789abcdef0", aws.ssm().getParameter(b -> b.name(parameter)).parameter().value());

    String queue = unique("farrier-it");
    String url = aws.sqs().createQueue(b -> b.queueName(queue)).queueUrl();
    assertTrue(url.endsWith("/" + queue), url);

    String role = unique("farrier-it");
    aws.iam().createRole(b -> b.roleName(role).assumeRolePolicyDocument("{\"Version\":\"2012-10-17\",\"Statement\":[]}"));
    assertEquals(role, aws.iam().getRole(b -> b.roleName(role)).role().roleName());
  }
}
