mod provision;
