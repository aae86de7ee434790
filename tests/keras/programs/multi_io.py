"""A functional model with two named inputs and two named outputs: per-output losses, metrics
and loss_weights given as dicts, dict inputs and targets, validation_split, model.summary()
and evaluate(return_dict=True)."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(21)
rng = np.random.RandomState(21)
n = 60
numbers = rng.randn(n, 4).astype('float32')
tokens = rng.randint(1, 30, size=(n, 5))
price = (numbers[:, 0] * 2 + 0.1 * rng.randn(n)).astype('float32')
kind = (numbers[:, 1] + (tokens[:, 0] > 15) > 0.5).astype('int32')

num_in = keras.Input(shape=(4,), name='numbers')
tok_in = keras.Input(shape=(5,), dtype='int32', name='tokens')
emb = keras.layers.Embedding(30, 3, name='embed')(tok_in)
emb = keras.layers.Flatten()(emb)
merged = keras.layers.Concatenate()([num_in, emb])
hidden = keras.layers.Dense(8, activation='tanh', name='hidden')(merged)
price_out = keras.layers.Dense(1, name='price')(hidden)
kind_out = keras.layers.Dense(2, activation='softmax', name='kind')(hidden)
model = keras.Model(inputs={'numbers': num_in, 'tokens': tok_in},
                    outputs={'price': price_out, 'kind': kind_out}, name='two_heads')
model.summary(line_length=90)
print('params', model.count_params())
model.compile(optimizer=keras.optimizers.Adam(0.02),
              loss={'price': 'mse', 'kind': 'sparse_categorical_crossentropy'},
              loss_weights={'price': 0.5, 'kind': 1.0},
              metrics={'price': ['mae'], 'kind': ['sparse_categorical_accuracy']})
history = model.fit({'numbers': numbers, 'tokens': tokens}, {'price': price, 'kind': kind},
                    epochs=3, batch_size=16, validation_split=0.25, verbose=0)
for key in sorted(history.history):
    print(key, np.round(history.history[key], 5).tolist())
result = model.evaluate({'numbers': numbers, 'tokens': tokens}, {'price': price, 'kind': kind},
                        verbose=0, return_dict=True)
for key in sorted(result):
    print('evaluate', key, round(result[key], 5))
pred = model.predict({'numbers': numbers[:3], 'tokens': tokens[:3]}, verbose=0)
print(sorted(pred), pred['price'].ravel().tolist(), pred['kind'].tolist())
print([layer.name for layer in model.layers])
print(model.get_layer('hidden').output.shape, model.output_names if hasattr(model, 'output_names') else '')
