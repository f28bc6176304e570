/** A Company's settings of the bus (the chain budget): one small json record per name. */
export const settingsSchema = `
CREATE TABLE svc_rt_settings (
  company_id text NOT NULL,
  name text NOT NULL,
  doc json NOT NULL,
  PRIMARY KEY (company_id, name)
);
`;
