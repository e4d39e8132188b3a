// A JSON object as tools receive and return it (the values are checked where they are read).

export type JsonObject = Record<string, unknown>;
