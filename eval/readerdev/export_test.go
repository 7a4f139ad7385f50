package readerdev_test

import "encoding/json"

type jsonNumber = json.Number
