{{/* The chart's name, overridable. */}}
{{- define "farrier.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The name of every object: the release name, with the chart's name unless the release already holds it. */}}
{{- define "farrier.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "farrier.selectorLabels" -}}
app.kubernetes.io/name: {{ include "farrier.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "farrier.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "farrier.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.additionalLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* metadata.labels and, when there are any, metadata.annotations of every object. */}}
{{- define "farrier.metadata" -}}
labels:
  {{- include "farrier.labels" . | nindent 2 }}
{{- with .Values.additionalAnnotations }}
annotations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{- define "farrier.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "farrier.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* repository@digest when a digest is set, else repository:tag (tag defaults to the appVersion). */}}
{{- define "farrier.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{- define "farrier.leaderElectionNamespace" -}}
{{- default .Release.Namespace .Values.settings.leaderElection.namespace }}
{{- end }}

{{/* Where the Temporal TLS Secret and the API key Secret are mounted (read-only). */}}
{{- define "farrier.temporalTlsDir" -}}/etc/farrier/temporal-tls{{- end }}
{{- define "farrier.temporalApiKeyDir" -}}/etc/farrier/temporal-api-key{{- end }}

{{- define "farrier.temporalTlsEnabled" -}}
{{- if or .Values.settings.temporal.tls.enabled .Values.settings.temporal.apiKey.secretName }}true{{ else }}false{{ end }}
{{- end }}
