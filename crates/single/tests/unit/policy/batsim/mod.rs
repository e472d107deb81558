mod protocol;
