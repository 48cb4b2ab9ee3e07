package dev.farrier.workflows.activities;

/** One long poll of the interruption queue ({@code queue}: an SQS queue URL or name). */
public record ReceiveInterruptionsRequest(String queue) {}
