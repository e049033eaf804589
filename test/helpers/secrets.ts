/** The ten variables of issue 31: how a workflow hands a test step its keys. */
export const TEN_SECRETS: Record<string, string> = {
  OPENAI_API_KEY: "sk-proj-openai-0123456789abcdef",
  ANTHROPIC_API_KEY: "sk-ant-api03-abcdefghijklmnop",
  AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE",
  DATABASE_URL: "postgres://user:pw-hunter2@db.internal/app",
  SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX",
  NPM_CONFIG__AUTH: "bnBtdXNlcjpucG1wYXNzd29yZA==",
  DOCKER_AUTH_CONFIG: '{"auths":{"registry.example":{"auth":"ZG9ja2VyOnB3"}}}',
  AZURE_CREDENTIALS: '{"clientId":"c1d2","clientSecret":"azure-secret-value"}',
  GH_PAT: "ghp_0123456789abcdefghijklmnopqrstuvwxyz",
  DEPLOY_KEY: "deploy-key-material-0123456789",
};
