// The built-in aisle dictionary: which shop section an item is usually in, by the words of its name
// (English; a few common German and French words too). Kept small and plain on purpose: a member
// can always move an item to another aisle, and the household's own choice is remembered for that
// name (shopping_history). Words are singular and lower case; phrases are matched before words.

export const AISLES = ['produce', 'bakery', 'dairy', 'meat', 'fish', 'frozen', 'pantry', 'snacks', 'drinks', 'household', 'personal_care', 'baby', 'pets', 'other'] as const;
export type Aisle = (typeof AISLES)[number];

export const AISLE_WORDS: Record<Exclude<Aisle, 'other'>, string[]> = {
  produce: [
    'apple', 'banana', 'orange', 'lemon', 'lime', 'grape', 'pear', 'peach', 'plum', 'cherry', 'strawberry', 'raspberry', 'blueberry', 'berry', 'melon', 'watermelon',
    'pineapple', 'mango', 'kiwi', 'avocado', 'tomato', 'potato', 'sweet potato', 'onion', 'spring onion', 'garlic', 'ginger', 'carrot', 'celery', 'cucumber', 'lettuce', 'salad', 'spinach',
    'kale', 'cabbage', 'broccoli', 'cauliflower', 'courgette', 'zucchini', 'aubergine', 'eggplant', 'pepper', 'bell pepper', 'chili', 'mushroom', 'leek', 'pumpkin', 'squash',
    'bean sprout', 'green bean', 'pea', 'corn on the cob', 'radish', 'beetroot', 'herb', 'parsley', 'basil', 'coriander', 'cilantro', 'mint', 'rosemary', 'thyme', 'dill', 'fruit', 'vegetable', 'veg',
    'apfel', 'banane', 'tomate', 'kartoffel', 'zwiebel', 'karotte', 'pomme', 'poire', 'carotte', 'oignon',
  ],
  bakery: ['bread', 'loaf', 'baguette', 'roll', 'bun', 'bagel', 'croissant', 'pastry', 'muffin', 'cake', 'pita', 'wrap', 'tortilla', 'crumpet', 'brioche', 'sourdough', 'toast', 'brot', 'brötchen', 'pain'],
  dairy: [
    'milk', 'oat milk', 'almond milk', 'soy milk', 'butter', 'cheese', 'cheddar', 'mozzarella', 'parmesan', 'feta', 'cream', 'sour cream', 'cream cheese', 'yoghurt', 'yogurt', 'quark', 'egg',
    'margarine', 'custard', 'kefir', 'milch', 'käse', 'joghurt', 'ei', 'eier', 'lait', 'beurre', 'fromage', 'oeuf', 'dairy', 'dairies',
  ],
  meat: ['chicken', 'beef', 'pork', 'lamb', 'turkey', 'mince', 'minced meat', 'steak', 'sausage', 'bacon', 'ham', 'salami', 'chorizo', 'meatball', 'burger', 'meat', 'fleisch', 'wurst', 'poulet', 'viande', 'tofu'],
  fish: ['fish', 'salmon', 'tuna steak', 'cod', 'haddock', 'prawn', 'shrimp', 'mussel', 'trout', 'mackerel', 'sardine fillet', 'seafood', 'fisch', 'lachs', 'poisson'],
  frozen: ['ice cream', 'frozen', 'ice', 'ice cube', 'fish finger', 'frozen pea', 'frozen pizza', 'oven chips', 'fries', 'sorbet', 'ice lolly', 'glace'],
  pantry: [
    'rice', 'pasta', 'spaghetti', 'penne', 'noodle', 'flour', 'sugar', 'salt', 'pepper corn', 'oil', 'olive oil', 'vinegar', 'cereal', 'muesli', 'oat', 'porridge', 'honey', 'jam', 'peanut butter',
    'nutella', 'spread', 'ketchup', 'mayonnaise', 'mustard', 'sauce', 'soy sauce', 'pesto', 'stock', 'stock cube', 'bouillon', 'soup', 'tin', 'canned', 'tinned tomato', 'tuna', 'sardine', 'bean',
    'lentil', 'chickpea', 'spice', 'paprika', 'cinnamon', 'curry', 'yeast', 'baking powder', 'cornflour', 'coffee', 'tea', 'cocoa', 'couscous', 'quinoa', 'nut', 'almond', 'raisin', 'dried fruit',
    'mehl', 'zucker', 'reis', 'nudel', 'öl', 'kaffee', 'tee', 'farine', 'sucre', 'riz', 'pâte', 'huile', 'café', 'thé', 'cereals', 'groceries',
  ],
  snacks: ['crisp', 'chips', 'cracker', 'biscuit', 'cookie', 'chocolate', 'sweet', 'candy', 'popcorn', 'pretzel', 'snack', 'gum', 'cereal bar', 'schokolade', 'chocolat', 'gummy bear'],
  drinks: [
    'water', 'sparkling water', 'juice', 'orange juice', 'apple juice', 'lemonade', 'cola', 'soda', 'squash drink', 'beer', 'wine', 'cider', 'prosecco', 'champagne', 'gin', 'vodka', 'whisky', 'rum',
    'smoothie', 'energy drink', 'tonic', 'wasser', 'saft', 'bier', 'wein', 'eau', 'jus', 'vin', 'bière', 'beverage', 'drink',
  ],
  household: [
    'toilet paper', 'toilet roll', 'kitchen roll', 'paper towel', 'tissue', 'bin bag', 'rubbish bag', 'trash bag', 'washing up liquid', 'dish soap', 'dishwasher tablet', 'detergent', 'laundry',
    'washing powder', 'fabric softener', 'bleach', 'cleaner', 'sponge', 'cloth', 'foil', 'cling film', 'baking paper', 'battery', 'light bulb', 'candle', 'match', 'freezer bag', 'sandwich bag',
    'air freshener', 'toilettenpapier', 'spülmittel', 'waschmittel', 'papier toilette', 'lessive',
  ],
  personal_care: [
    'shampoo', 'conditioner', 'soap', 'hand soap', 'shower gel', 'body wash', 'toothpaste', 'toothbrush', 'floss', 'mouthwash', 'deodorant', 'razor', 'shaving foam', 'sun cream', 'sunscreen',
    'moisturiser', 'moisturizer', 'lotion', 'tampon', 'sanitary pad', 'cotton wool', 'cotton bud', 'plaster', 'paracetamol', 'ibuprofen', 'vitamin', 'medicine', 'lip balm', 'hair gel',
    'zahnpasta', 'seife', 'dentifrice', 'savon',
  ],
  baby: ['nappy', 'nappies', 'diaper', 'baby wipe', 'wipe', 'baby food', 'formula', 'baby milk', 'windel'],
  pets: ['cat food', 'dog food', 'cat litter', 'litter', 'pet food', 'bird seed', 'dog treat', 'cat treat', 'katzenfutter', 'hundefutter'],
};
